"""``kg mcp``: the graph as an MCP server for AI assistants (stdio, or streamable HTTP).

Like ``kg serve``, it opens the store for as long as it runs: on the embedded store that makes
it the one process holding the data dir (stop ``kg serve`` first, or run on Neo4j).
"""

from __future__ import annotations

import logging
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Annotated

import typer

from kg import holder
from kg.cli_support import err, opened

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from api.deps import AppState


def register(app: typer.Typer) -> None:
    app.command()(mcp)


def mcp(
    transport: Annotated[
        str, typer.Option(help="stdio (an assistant starts kg mcp itself) or http.")
    ] = "stdio",
    host: Annotated[str | None, typer.Option(help="HTTP address [KG_API__HOST].")] = None,
    port: Annotated[
        int | None, typer.Option(min=1, max=65535, help="HTTP port [KG_API__PORT].")
    ] = None,
    path: Annotated[str, typer.Option(help="HTTP path of the MCP endpoint.")] = "/mcp",
) -> None:
    """Serve search, ask (with the report), entity lookup, neighbourhood and paths as MCP
    tools. Over HTTP the endpoint needs an X-API-Key header when KG_API_KEYS is set."""
    from api.deps import AppState
    from api.mcp_server import build_mcp_server, checked_transport
    from api.security import key_digests
    from core.errors import KgError
    from kg.cli_support import fail
    from llm.openai_compat import build_llm

    try:
        checked_transport(transport)
    except KgError as exc:
        raise fail(str(exc)) from exc
    # stdout carries the protocol on stdio: every log line goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    with opened(init=True) as c, ExitStack() as holding:
        if c.settings.store == "embedded":
            # A second command refused by the store's lock names this process (kg/holder.py).
            holding.enter_context(holder.recorded(c.settings.data_dir, "kg mcp"))
        state = AppState(
            settings=c.settings,
            container=c,
            llm=build_llm(c.settings.llm),
            key_digests=key_digests(c.settings.api_keys),
        )
        server = build_mcp_server(lambda: state)
        if transport == "stdio":
            server.run("stdio")
            return
        _serve_http(server, state, host or c.settings.api.host, port or c.settings.api.port, path)


def _serve_http(server: MCPServer, state: AppState, host: str, port: int, path: str) -> None:
    import uvicorn

    from api.mcp_http import keyed

    app = keyed(server.streamable_http_app(streamable_http_path=path, host=host), state)
    err.print(f"kg-first MCP on http://{host}:{port}{path}")
    uvicorn.run(app, host=host, port=port, log_level="warning", workers=1)
