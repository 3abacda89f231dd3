"""``kg neo4j start|stop|status``: the local Neo4j + GDS + APOC server from the Maven jars."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from core.errors import KgError
from kg.cli_support import fail, out
from kg.neo4j_server import LocalNeo4j
from kg.settings import get_settings

neo4j_app = typer.Typer(
    help="A local Neo4j + GDS + APOC server (jars from `make neo4j-jars`; no Docker needed).",
    no_args_is_help=True,
)

HomeOption = Annotated[
    Path | None,
    typer.Option("--home", help="Server directory (conf, data, logs) [<KG_DATA_DIR>/neo4j]."),
]


def register(app: typer.Typer) -> None:
    app.add_typer(neo4j_app, name="neo4j")


def _server(home: Path | None) -> LocalNeo4j:
    s = get_settings()
    n = s.neo4j
    return LocalNeo4j(home or s.data_dir / "neo4j", n.uri, n.user, n.password, s.neo4j_server)


@neo4j_app.command()
def start(home: HomeOption = None) -> None:
    """Start the server (or find it running) and wait until GDS and APOC answer on Bolt."""
    began = time.monotonic()
    try:
        status = _server(home).start()
    except KgError as exc:
        raise fail(str(exc)) from exc
    out.print(f"{status.describe()} in {time.monotonic() - began:.1f}s", highlight=False)


@neo4j_app.command()
def stop(home: HomeOption = None) -> None:
    """Stop the server with SIGTERM and wait for it to exit."""
    try:
        stopped = _server(home).stop()
    except KgError as exc:
        raise fail(str(exc)) from exc
    out.print("neo4j: stopped" if stopped else "neo4j: was not running")


@neo4j_app.command()
def status(home: HomeOption = None) -> None:
    """Say whether the server runs and answers; exit 1 when it does not run."""
    st = _server(home).status()
    out.print(st.describe(), highlight=False)
    if not st.running:
        raise typer.Exit(1)
