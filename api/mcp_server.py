"""The graph for AI assistants: an MCP server (the official ``mcp`` SDK) whose tools are the
API's own operations — search, ask (the analyst's report), entity lookup and details,
neighbourhood, relation evidence and paths — run on the same opened services as the HTTP API.

Tools run in a worker thread: retrieval and the agent loop block (model inference, database
reads), and the server's event loop must keep answering the transport meanwhile. Errors the
project raises on purpose reach the assistant as a tool error with their one-line message;
anything else is logged here and reaches it as a generic failure (the SDK's rule).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from api.answering import answer
from api.deps import AppState
from api.errors import Problem
from api.explore import explore_port
from api.schemas import jsonable
from core.errors import InputError, KgError
from graph_store.port import MAX_HOPS
from retrieval.filters import SearchFilters
from retrieval.search import PRESETS

T = TypeVar("T")

INSTRUCTIONS = (
    "kg-first answers questions from a knowledge graph built from the user's documents. "
    "Use `ask` for a question that needs an answer with citations (it returns an analyst's "
    "report: answer, findings, sources, gaps, confidence); `search` for the passages that "
    "best match a question; `lookup_entity` to turn a name, acronym or former name into an "
    "entity id, then `entity`, `neighbourhood`, `relations` and `paths` to explore the graph "
    "around it. Every passage carries its chunk id and document title: cite them."
)

Question = Annotated[str, Field(min_length=1, max_length=4000, description="the question")]
EntityId = Annotated[str, Field(min_length=1, description="an entity id from lookup_entity")]
Hops = Annotated[int, Field(ge=1, le=MAX_HOPS)]


async def _run(work: Callable[[], T]) -> T:
    """``work`` in a worker thread, with the project's own errors turned into tool errors."""
    try:
        return await anyio.to_thread.run_sync(work)
    except KgError as exc:
        raise ToolError(str(exc)) from exc
    except Problem as exc:  # an adapter without the explore queries
        raise ToolError(str(exc.detail)) from exc


def build_mcp_server(state: Callable[[], AppState]) -> MCPServer:
    """The server; ``state`` gives the opened services when a tool runs (the caller opens and
    closes them: ``kg mcp`` around the transport)."""
    server: MCPServer = MCPServer(
        name="kg-first", instructions=INSTRUCTIONS, version=_version(), log_level="WARNING"
    )

    @server.tool()
    async def search(
        question: Question,
        k: Annotated[int, Field(ge=1, le=50)] = 8,
        preset: Annotated[str | None, Field(description=f"one of {', '.join(PRESETS)}")] = None,
        doc_type: Annotated[
            str | None, Field(description="document type, e.g. board paper")
        ] = None,
        source: Annotated[str | None, Field(description="the folder documents came from")] = None,
        date_from: Annotated[str | None, Field(description="ISO date or month, inclusive")] = None,
        date_to: Annotated[str | None, Field(description="ISO date or month, inclusive")] = None,
    ) -> dict[str, Any]:
        """The passages that best answer a question, best first, each with its document,
        scores and the graph path that brought it in."""
        s = state()
        chosen = preset or s.settings.retrieval.preset
        if chosen not in PRESETS:
            raise ToolError(f"unknown preset {chosen!r}; choose one of {', '.join(PRESETS)}")

        def work() -> dict[str, Any]:
            filters = SearchFilters(source, doc_type, date_from, date_to)
            got = s.container.searcher().retrieve(question, k, chosen, filters).as_dict()
            return {"question": question, **got}

        return await _run(work)

    @server.tool()
    async def ask(
        question: Question,
        k: Annotated[int | None, Field(ge=1, le=50)] = None,
        max_iterations: Annotated[int | None, Field(ge=1, le=10)] = None,
    ) -> dict[str, Any]:
        """Answer a question from the documents with citations, through the agent loop
        (plan, evidence, critique, synthesis, verification). Returns the report: the answer,
        findings with their citations, confidence and its reason, warnings and the run id."""
        s = state()
        return await _run(
            partial(answer, s, question, lambda _s, _p: None, k=k, max_iterations=max_iterations)
        )

    @server.tool()
    async def lookup_entity(
        name: Annotated[str, Field(min_length=1, max_length=500)],
        k: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> dict[str, Any]:
        """Entities known by a name or any alias (acronym, former name), best first."""
        store = state().container.store
        return {
            "query": name,
            "items": await _run(lambda: jsonable(explore_port(store).lookup_entities(name, k))),
        }

    @server.tool()
    async def entity(entity_id: EntityId) -> dict[str, Any]:
        """An entity with its type, aliases, PageRank, mentions and the documents naming it."""
        store = state().container.store
        return dict(await _run(lambda: jsonable(explore_port(store).entity_details(entity_id))))

    @server.tool()
    async def neighbourhood(
        entity_id: EntityId, hops: Hops = 1, limit: Annotated[int, Field(ge=1, le=500)] = 50
    ) -> dict[str, Any]:
        """Entities within ``hops`` typed relations of an entity, and the relations among them
        with their evidence chunk ids."""
        store = state().container.store
        graph = await _run(lambda: store.neighbourhood(entity_id, hops, limit))
        if not graph.nodes:
            raise ToolError(f"no entity with id {entity_id!r}")
        return {"center": entity_id, "hops": hops, **jsonable(graph)}

    @server.tool()
    async def relations(source_id: EntityId, target_id: EntityId) -> dict[str, Any]:
        """The typed relations between two entities (either direction) with their evidence."""
        store = state().container.store
        found = await _run(
            lambda: jsonable(explore_port(store).edge_evidence(source_id, target_id))
        )
        return {"source": source_id, "target": target_id, "relations": found}

    @server.tool()
    async def paths(
        from_id: EntityId, to_id: EntityId, max_hops: Hops = MAX_HOPS
    ) -> dict[str, Any]:
        """Shortest relation paths between two entities, up to ``max_hops``, each edge with
        its evidence chunk ids."""
        store = state().container.store
        found = await _run(lambda: jsonable(explore_port(store).paths(from_id, to_id, max_hops)))
        return {"from": from_id, "to": to_id, "max_hops": max_hops, "paths": found}

    return server


def checked_transport(transport: str) -> str:
    if transport not in ("stdio", "http"):
        raise InputError("--transport", f"expected stdio or http, got {transport!r}")
    return transport


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kg-first")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled checkout
        return "0.0.0"
