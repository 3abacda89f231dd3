"""Shared pieces of the ``kg`` command line: consoles, error exit, opened container, progress."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from core.errors import KgError, StoreLocked
from kg import holder
from kg.container import Container, build
from kg.settings import get_settings

# Library chatter (model loading bars) would bury our own output.
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The Neo4j driver warns on stderr at each retry of a transaction ("Transaction failed and will
# be retried in 3.6s ...", two lines each) while the server is away; the CLI says what failed
# once, as its own error line, when the retries are spent.
logging.getLogger("neo4j").setLevel(logging.ERROR)

out = Console()
err = Console(stderr=True)


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print one ``error: ...`` line on stderr and return the Exit to raise."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


# The first thing a new user may run is `kg stats` on the default data dir while `make demo`
# built another one: say so instead of creating an empty store and quoting Kùzu's binder error.
NO_GRAPH = (
    "no graph at {data_dir}: run 'kg ingest <folder>' first, or set KG_DATA_DIR "
    "(make demo builds .kg/demo)"
)
NO_DOCUMENTS = "no documents yet in {data_dir}: run 'kg ingest <folder>' first"


@contextmanager
def opened(init: bool = False, reset: bool = False, existing: bool = False) -> Iterator[Container]:
    """Build the container from settings and hold the store open; KgError becomes ``fail``.
    ``reset`` empties a Neo4j or FalkorDB database first (the embedded store's files are
    removed by ``kg init`` before this). ``existing``: the command only reads, so an embedded
    graph that is not there is an error, and nothing is created."""
    settings = get_settings()
    if existing and settings.store == "embedded" and not settings.embedded_path.exists():
        raise fail(NO_GRAPH.format(data_dir=settings.data_dir))
    try:
        container = build(settings)
        if reset:
            from graph_store.falkordb.store import FalkorGraphStore
            from graph_store.neo4j.store import Neo4jGraphStore

            if isinstance(container.store, Neo4jGraphStore | FalkorGraphStore):
                container.store.reset()
        with container.store:
            if init:
                container.store.init_schema()
            yield container
    except StoreLocked as exc:
        held = holder.current(settings.data_dir)
        data_dir = settings.data_dir
        raise fail(held.advice(data_dir) if held else holder.unknown_advice(data_dir)) from exc
    except KgError as exc:
        raise fail(str(exc)) from exc


def has_documents(container: Container) -> bool:
    """Whether retrieval has anything to search (one cheap read)."""
    return bool(container.store.list_documents(0, 1))


def progress(disable: bool = False) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description:>8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
        disable=disable,
    )
