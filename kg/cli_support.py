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

from core.errors import KgError
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


@contextmanager
def opened(init: bool = False, reset: bool = False) -> Iterator[Container]:
    """Build the container from settings and hold the store open; KgError becomes ``fail``.
    ``reset`` empties a Neo4j or FalkorDB database first (the embedded store's files are removed by
    ``kg init`` before this)."""
    try:
        container = build(get_settings())
        if reset:
            from graph_store.falkordb.store import FalkorGraphStore
            from graph_store.neo4j.store import Neo4jGraphStore

            if isinstance(container.store, Neo4jGraphStore | FalkorGraphStore):
                container.store.reset()
        with container.store:
            if init:
                container.store.init_schema()
            yield container
    except KgError as exc:
        raise fail(str(exc)) from exc


def progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description:>8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    )
