"""``kg serve``: run the HTTP API."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Filled in by the serve work; registers nothing yet."""
