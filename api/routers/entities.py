"""Entities and their surroundings: alias-aware lookup, details, neighbourhood, relation
evidence and paths between two entities."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from api.deps import StoreDep
from api.explore import explore_port, supporting_sentence, with_ranks
from api.schemas import jsonable
from core.errors import NotFoundError
from graph_store.port import MAX_HOPS

router = APIRouter(prefix="/v1", tags=["entities"])

Hops = Annotated[int, Query(ge=1, le=MAX_HOPS)]


@router.get("/entities")
def lookup_entities(
    store: StoreDep,
    q: Annotated[str, Query(min_length=1, max_length=500, description="a name or any alias")],
    k: Annotated[int, Query(ge=1, le=100)] = 10,
) -> dict[str, Any]:
    """Entities matching a name or alias (acronyms, former names, nicknames), best first."""
    return {"query": q, "items": jsonable(explore_port(store).lookup_entities(q, k))}


@router.get("/entities/{entity_id}")
def entity_details(entity_id: str, store: StoreDep) -> dict[str, Any]:
    """An entity with its aliases, PageRank, mention count and the documents mentioning it."""
    return dict(jsonable(explore_port(store).entity_details(entity_id)))


@router.get("/entities/{entity_id}/neighborhood")
def neighborhood(
    entity_id: str,
    store: StoreDep,
    hops: Hops = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> dict[str, Any]:
    """Entities within ``hops`` typed relations, with the relations among them; each entity
    with its PageRank and mention count."""
    with store.read_snapshot():  # the ranks of the neighbourhood's own version
        graph = store.neighbourhood(entity_id, hops, limit)
        if not graph.nodes:
            raise NotFoundError(f"no entity with id {entity_id!r}")
        body = jsonable(graph)
        body["nodes"] = with_ranks(explore_port(store), body["nodes"])
    return {"center": entity_id, "hops": hops, **body}


@router.get("/relations")
def relation_evidence(
    store: StoreDep,
    source: Annotated[str, Query(min_length=1)],
    target: Annotated[str, Query(min_length=1)],
) -> dict[str, Any]:
    """The typed relations between two entities (either direction) with their evidence chunks;
    each chunk's ``support`` is its sentence naming both entities (by name or alias), as
    ``start:end`` of its text."""
    explorer = explore_port(store)
    with store.read_snapshot():
        relations = jsonable(explorer.edge_evidence(source, target))
        ends = []
        for eid in (source, target):
            found = explorer.entity_details(eid)
            ends.append((found.name, *found.aliases))
    for relation in relations:
        for chunk in relation["evidence"]:
            chunk["support"] = jsonable(supporting_sentence(chunk["text"], ends))
    return {"source": source, "target": target, "relations": relations}


@router.get("/paths")
def paths(
    store: StoreDep,
    from_id: Annotated[str, Query(alias="from", min_length=1)],
    to_id: Annotated[str, Query(alias="to", min_length=1)],
    max_hops: Hops = MAX_HOPS,
) -> dict[str, Any]:
    """Shortest relation paths between two entities, up to ``max_hops``."""
    explorer = explore_port(store)
    with store.read_snapshot():
        found = jsonable(explorer.paths(from_id, to_id, max_hops))
        for path in found:
            path["nodes"] = with_ranks(explorer, path["nodes"])
    return {"from": from_id, "to": to_id, "max_hops": max_hops, "paths": found}
