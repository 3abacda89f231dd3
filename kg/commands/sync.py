"""``kg sync`` and ``kg watch``: keep the graph in step with directories."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Filled in by the sync work; registers nothing yet."""
