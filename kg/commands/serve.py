"""``kg serve``: run the HTTP API (and the explorer page at /explore)."""

from __future__ import annotations

import signal
from contextlib import ExitStack
from types import FrameType
from typing import Annotated

import typer

from kg import holder
from kg.cli_support import out
from kg.container import Container
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
    local = "127.0.0.1" if bind_host in ("0.0.0.0", "::") else bind_host
    url = f"http://{local}:{bind_port}" if bind_port else ""
    holding = ExitStack()

    def build_and_hold() -> Container:
        container = build(settings)
        if settings.store == "embedded":
            # Recorded once the store is open: a second server refused by the lock must not
            # overwrite the record of the one that holds it.
            container.store.open()
            holding.enter_context(holder.recorded(settings.data_dir, "kg serve", url))
        return container

    def release_then_stop(signum: int, _frame: FrameType | None) -> None:
        # uvicorn shuts down gracefully on SIGTERM, then raises the signal again for this
        # handler (no ``finally`` would run under the default one): drop the record, then die
        # of the signal as before.
        holding.close()
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)

    signal.signal(signal.SIGTERM, release_then_stop)
    # One process only: the embedded store allows a single writer, and this server owns it.
    with holding:
        uvicorn.run(
            create_app(settings, build=build_and_hold),
            host=bind_host,
            port=bind_port,
            log_level=log_level,
            workers=1,
        )
