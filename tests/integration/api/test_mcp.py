"""The MCP server through the SDK's own client: in-process on an opened store, then `kg mcp`
as an assistant runs it (stdio) and over streamable HTTP with an API key."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from api.deps import AppState
from api.mcp_server import build_mcp_server
from kg.container import Container
from tests.stores import both_stores

TOOLS = {"search", "ask", "lookup_entity", "entity", "neighbourhood", "relations", "paths"}

# An invented corpus: two companies, a person who chairs one, a membership between them.
DOCS = {
    "harbourline.md": (
        "# Harbourline Freight Annual Review\n\nDate: 2026-04-01\nType: annual report\n\n"
        "Harbourline Freight (HLF) is a member of the Tidewater Logistics Alliance. "
        "The board of Harbourline Freight is chaired by Mirela Castellanos. "
        "Harbourline Freight will open two depots in 2027.\n"
    ),
    "alliance.md": (
        "# About the Tidewater Logistics Alliance\n\nDate: 2026-02-10\nType: briefing\n\n"
        "The Tidewater Logistics Alliance coordinates rail freight along the estuary. "
        "Its members include Harbourline Freight and Quayside Haulage.\n"
    ),
}


def write_corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def payload(result: Any) -> Any:
    """A tool result's structured content, or its text parsed as JSON."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


def run(main: Callable[[], Awaitable[None]]) -> None:
    anyio.run(main)


@pytest.fixture()
def tiny(container: Container, tmp_path: Path) -> Container:
    container.ingestor().ingest_paths([write_corpus(tmp_path / "docs")])
    return container


@both_stores
def test_every_tool_answers_in_process(tiny: Container) -> None:
    state = AppState(settings=tiny.settings, container=tiny, llm=None)
    server = build_mcp_server(lambda: state)

    async def main() -> None:
        async with Client(server) as client:
            listed = {t.name for t in (await client.list_tools()).tools}
            assert listed == TOOLS
            found = payload(
                await client.call_tool("lookup_entity", {"name": "Harbourline Freight"})
            )
            top = found["items"][0]
            assert top["name"] == "Harbourline Freight"
            details = payload(await client.call_tool("entity", {"entity_id": top["entity_id"]}))
            assert {d["title"] for d in details["documents"]} >= {
                "Harbourline Freight Annual Review"
            }
            near = payload(await client.call_tool("neighbourhood", {"entity_id": top["entity_id"]}))
            names = {n["name"] for n in near["nodes"]}
            assert "Tidewater Logistics Alliance" in names
            other = next(n for n in near["nodes"] if n["name"] == "Tidewater Logistics Alliance")
            routes = payload(
                await client.call_tool("paths", {"from_id": top["entity_id"], "to_id": other["id"]})
            )
            assert routes["paths"], routes
            hits = payload(await client.call_tool("search", {"question": "Who chairs the board?"}))
            assert any("Mirela Castellanos" in h["text"] for h in hits["results"][:3])
            report = payload(
                await client.call_tool("ask", {"question": "Who chairs Harbourline Freight?"})
            )
            assert "Mirela Castellanos" in report["answer"]
            assert report["citations"], report
            missing = await client.call_tool("neighbourhood", {"entity_id": "no-such-entity"})
            assert missing.is_error
            assert "no entity with id" in missing.content[0].text
            bad = await client.call_tool("search", {"question": "x", "preset": "nope"})
            assert bad.is_error and "unknown preset" in bad.content[0].text

    run(main)


@pytest.fixture(scope="module")
def on_disk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A store on disk built by `kg ingest`, and the environment `kg mcp` runs with."""
    root = tmp_path_factory.mktemp("mcp")
    env = {**os.environ, "KG_DATA_DIR": str(root / "kg"), "HF_HUB_OFFLINE": "1"}
    subprocess.run(
        [sys.executable, "-m", "kg.cli", "ingest", str(write_corpus(root / "docs"))],
        env=env,
        check=True,
        capture_output=True,
    )
    return env


def test_an_assistant_runs_kg_mcp_over_stdio(on_disk: dict[str, str]) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kg.cli", "mcp"], env=on_disk
    )

    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            found = payload(await client.call_tool("lookup_entity", {"name": "Mirela Castellanos"}))
            assert found["items"][0]["name"] == "Mirela Castellanos"

    run(main)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def http_server(on_disk: dict[str, str]) -> Iterator[str]:
    """`kg mcp --transport http` with an API key; yields its URL once it accepts connections."""
    port = free_port()
    env = {**on_disk, "KG_API_KEYS": "k-one,k-two"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "mcp", "--transport", "http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        # Its banner on stderr says the server is about to bind; then poll the port. Both end
        # on the process's own progress (or its exit), never on a guessed delay.
        assert proc.stderr is not None
        for line in proc.stderr:
            if "MCP on http://" in line:
                break
        else:
            pytest.fail(f"kg mcp exited before serving (rc {proc.wait()})")
        while proc.poll() is None:
            try:
                httpx.get(url, timeout=5)
                break
            except httpx.TransportError:
                continue
        assert proc.poll() is None, "kg mcp exited"
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_the_http_endpoint_needs_a_key_and_then_serves_the_tools(http_server: str) -> None:
    refused = httpx.post(http_server, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert refused.status_code == 401
    assert refused.headers["content-type"].startswith("application/problem+json")

    async def main() -> None:
        async with (
            httpx2.AsyncClient(headers={"X-API-Key": "k-two"}, timeout=300) as http,
            Client(streamable_http_client(http_server, http_client=http)) as client,
        ):
            got = payload(await client.call_tool("search", {"question": "rail freight", "k": 2}))
            assert got["results"][0]["document_title"] == "About the Tidewater Logistics Alliance"

    run(main)
