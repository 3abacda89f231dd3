"""Sub-commands of ``kg`` that live in their own modules, one module per concern."""

from __future__ import annotations

import typer


def register_all(app: typer.Typer) -> None:
    from kg.commands import ask, bench, llm, mcp, neo4j, serve, sync

    for module in (ask, serve, sync, bench, llm, neo4j, mcp):
        module.register(app)
