"""``kg bench``: multi-hop retrieval and ingest benchmarks."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Filled in by the bench work; registers nothing yet."""
