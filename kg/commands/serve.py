"""``kg serve``: run the HTTP API (and the explorer page at /explore)."""

from __future__ import annotations

from typing import Annotated

import typer

from kg.cli_support import out
from kg.settings import get_settings


def register(app: typer.Typer) -> None:
    app.command()(serve)


def serve(
    host: Annotated[str | None, typer.Option(help="Address to bind [KG_API__HOST].")] = None,
    port: Annotated[
        int | None, typer.Option(min=0, max=65535, help="Port to bind [KG_API__PORT].")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the HTTP API; OpenAPI docs at /docs, the graph explorer at /explore."""
    import uvicorn

    from api.app import create_app
    from kg.container import build

    settings = get_settings()
    bind_host = host or settings.api.host
    bind_port = settings.api.port if port is None else port
    out.print(f"kg-first API on http://{bind_host}:{bind_port} (explorer at /explore)")
    # One process only: the embedded store allows a single writer, and this server owns it.
    uvicorn.run(
        create_app(settings, build=lambda: build(settings)),
        host=bind_host,
        port=bind_port,
        log_level=log_level,
        workers=1,
    )
