"""The explore capabilities' logic shared by both adapters: named queries in, result types out.

Each function takes ``run(name, **params) -> rows``, the adapter's way to run
``cypher/<backend>/<name>.cypher``; the queries of one name return the same columns on both
backends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from core.errors import InputError, NotFoundError
from core.names import normalize_name
from graph_store.explore_types import (
    ChunkMeta,
    DocumentMeta,
    DocumentRef,
    EdgeInfo,
    EntityDetails,
    EntityMeta,
    EntityRank,
    EvidenceChunk,
    GraphDetails,
    GraphPath,
    RelationMeta,
)
from graph_store.types import ChunkHit, EntityHit, GraphEdge, GraphNode

Run = Callable[..., list[list[Any]]]

MAX_PATH_HOPS = 3
MAX_LOOKUP = 100

# Lookup tiers, best first, in disjoint score bands so that scores fall along the list: the
# whole normalised alias (1.0); the start of an alias (PREFIX_BAND, higher the more of the
# alias was typed); words of an alias in the full-text index (FULLTEXT_BAND, by BM25 relative
# to the best full-text hit).
EXACT_SCORE = 1.0
PREFIX_BAND = (0.5, 0.9)
FULLTEXT_BAND = (0.0, 0.5)


DOCUMENTS = 50  # documents listed in entity details
SCHEMA_VALUES = 50  # relation kinds / entity types listed in a schema description
# Parallel relations multiply the rows of one route: path rows fetched per route asked for.
PATH_ROWS = 16


def lookup(
    run: Run, fulltext: Callable[[str, int], list[EntityHit]], q: str, k: int
) -> list[EntityHit]:
    key = normalize_name(q)
    if not key:
        return []
    k = lookup_limit(k)
    exact = run("explore_alias_exact", key=key, k=k)
    # Several aliases of one entity may share the prefix: ask for more rows than hits.
    prefix = run("explore_alias_prefix", key=key, k=3 * k)
    return merge_lookup(exact, prefix, fulltext(q, 3 * k), key, k)


def details(run: Run, entity_id: str) -> EntityDetails:
    rows = run("explore_entity", id=entity_id)
    if not rows:
        raise NotFoundError(f"no entity with id {entity_id!r}")
    return entity_details(rows[0], run("explore_entity_documents", id=entity_id, limit=DOCUMENTS))


def ranks(run: Run, ids: Sequence[str]) -> dict[str, EntityRank]:
    """PageRank and mentions of each known id; unknown ids are left out."""
    rows = run("explore_entity_ranks", ids=sorted(set(ids)))
    return {r[0]: EntityRank(r[0], float(r[1] or 0.0), int(r[2] or 0)) for r in rows}


def graph_details(run: Run) -> GraphDetails:
    """The ``explore_export_*`` rows (same columns on both backends) as ``GraphDetails``."""
    return GraphDetails(
        documents=tuple(
            DocumentMeta(r[0], r[1] or "", r[2] or "", r[3] or "", r[4] or "", r[5] or "")
            for r in run("explore_export_documents")
        ),
        chunks=tuple(
            ChunkMeta(r[0], r[1], int(r[2] or 0), r[3] or "") for r in run("explore_export_chunks")
        ),
        entities=tuple(
            EntityMeta(
                r[0],
                r[1] or "",
                float(r[2] or 0.0),
                int(r[3] or 0),
                tuple(sorted({a for a in r[4] or () if a}, key=str.casefold)),
            )
            for r in run("explore_export_entities")
        ),
        relations=tuple(
            RelationMeta(r[0], r[1], r[2], r[4] or "", tuple(r[3] or ()))
            for r in run("explore_export_relations")
        ),
    )


def require_entities(run: Run, *ids: str) -> list[list[Any]]:
    """The ``entity_get`` row of each id; NotFoundError for the first unknown one."""
    rows = []
    for eid in ids:
        found = run("entity_get", id=eid)
        if not found:
            raise NotFoundError(f"no entity with id {eid!r}")
        rows.append(found[0])
    return rows


def evidence(
    run: Run, get_chunks: Callable[[Sequence[str]], list[ChunkHit]], a: str, b: str
) -> list[EdgeInfo]:
    require_entities(run, a, b)
    rels = run("explore_edge", a=a, b=b)
    chunk_ids = sorted({c for r in rels for c in r[4] or ()})
    return edge_infos(rels, get_chunks(chunk_ids))


def paths(
    run: Run,
    from_id: str,
    to_id: str,
    max_hops: int,
    limit: int,
    shape: Callable[[Sequence[Any]], GraphPath],
) -> list[GraphPath]:
    """``shape`` turns one ``explore_paths`` row into a path (the backends say a relation's
    direction differently)."""
    hops = check_path_hops(max_hops)
    start, _ = require_entities(run, from_id, to_id)
    if from_id == to_id:
        return [graph_path([start], [])]
    limit = max(1, limit)
    rows = run("explore_paths", from_id=from_id, to_id=to_id, hops=hops, limit=PATH_ROWS * limit)
    return distinct_paths((shape(r) for r in rows), limit)


def check_path_hops(max_hops: int) -> int:
    if isinstance(max_hops, bool) or not isinstance(max_hops, int):
        raise InputError("max_hops", f"must be an integer, got {type(max_hops).__name__}")
    if not 1 <= max_hops <= MAX_PATH_HOPS:
        raise InputError("max_hops", f"must be between 1 and {MAX_PATH_HOPS}, got {max_hops}")
    return max_hops


def lookup_limit(k: int) -> int:
    return max(1, min(MAX_LOOKUP, int(k)))


def merge_lookup(
    exact: Iterable[Sequence[Any]],
    prefix: Iterable[Sequence[Any]],
    fulltext: Iterable[EntityHit],
    typed: str,
    k: int,
) -> list[EntityHit]:
    """One hit per entity, best tier first.

    ``exact`` and ``prefix`` rows are (entity id, name, type, alias name, alias key), already
    ordered within their tier; ``typed`` is the normalised query the prefix tier matched."""
    hits: dict[str, EntityHit] = {}

    def add(hit: EntityHit) -> None:
        if hit.entity_id not in hits and len(hits) < k:
            hits[hit.entity_id] = hit

    for r in exact:
        add(EntityHit(r[0], r[1], r[2] or "", EXACT_SCORE, matched=r[3]))
    low, high = PREFIX_BAND
    for r in prefix:
        share = min(len(typed) / max(len(r[4]), 1), 1.0)
        add(EntityHit(r[0], r[1], r[2] or "", low + (high - low) * share, matched=r[3]))
    ranked = sorted(fulltext, key=lambda h: -h.score)
    top = max((h.score for h in ranked), default=0.0)
    low, high = FULLTEXT_BAND
    for h in ranked:
        share = h.score / top if top > 0 else 0.0
        add(EntityHit(h.entity_id, h.name, h.type, low + (high - low) * share, matched=h.matched))
    return list(hits.values())


def entity_details(row: Sequence[Any], docs: Iterable[Sequence[Any]]) -> EntityDetails:
    """``row``: id, name, type, description, pagerank, mentions, alias names;
    ``docs``: (id, title, mention count) best first."""
    return EntityDetails(
        id=row[0],
        name=row[1] or "",
        type=row[2] or "",
        description=row[3] or "",
        pagerank=float(row[4] or 0.0),
        mentions=int(row[5] or 0),
        aliases=tuple(sorted({a for a in row[6] or () if a}, key=str.casefold)),
        documents=tuple(DocumentRef(d[0], d[1] or "", int(d[2] or 0)) for d in docs),
    )


def edge_infos(relations: Iterable[Sequence[Any]], chunks: Iterable[ChunkHit]) -> list[EdgeInfo]:
    """``relations``: (source, target, type, weight, evidence ids, extractor), one per stored
    (source, target, type) in the result, strongest first; ``chunks``: the evidence chunks."""
    by_id = {c.chunk_id: EvidenceChunk(c.chunk_id, c.doc_id, c.doc_title, c.text) for c in chunks}
    # A self-loop is matched from both of its ends.
    unique = {(r[0], r[1], r[2]): r for r in relations}
    ordered = sorted(unique.values(), key=lambda r: (-float(r[3] or 0.0), r[2], r[0]))
    return [
        EdgeInfo(
            source=r[0],
            target=r[1],
            type=r[2],
            weight=float(r[3] or 0.0),
            extractor=r[5] or "",
            evidence=tuple(by_id[c] for c in r[4] or () if c in by_id),
        )
        for r in ordered
    ]


def graph_path(
    nodes: Sequence[Sequence[Any]],
    rels: Sequence[Sequence[Any]],
) -> GraphPath:
    """``nodes``: (id, name, type) in path order; ``rels``: (forward, type, weight, evidence)
    where ``forward`` says the relation points from ``nodes[i]`` to ``nodes[i + 1]``."""
    path_nodes = tuple(
        GraphNode(n[0], "Entity", n[1] or "", n[2] or "", hops=i) for i, n in enumerate(nodes)
    )
    edges = []
    for i, (forward, rtype, weight, evidence) in enumerate(rels):
        a, b = path_nodes[i].id, path_nodes[i + 1].id
        src, dst = (a, b) if forward else (b, a)
        edges.append(GraphEdge(src, dst, rtype, float(weight or 0.0), tuple(evidence or ())))
    return GraphPath(nodes=path_nodes, edges=tuple(edges))


def distinct_paths(paths: Iterable[GraphPath], limit: int) -> list[GraphPath]:
    """One path per sequence of entities, each hop by its strongest relation.

    Shortest-path search returns a path per combination of parallel relations (a pair joined
    by both MEMBER_OF and CO_OCCURS doubles every path through it); the explorer shows routes,
    and the evidence of every relation on a hop is one ``edge_evidence`` call away."""
    best: dict[tuple[str, ...], list[GraphEdge]] = {}
    first: dict[tuple[str, ...], GraphPath] = {}
    for p in paths:
        key = tuple(n.id for n in p.nodes)
        if key not in best:
            if len(best) >= limit:
                continue
            best[key], first[key] = list(p.edges), p
            continue
        hops = best[key]
        for i, edge in enumerate(p.edges):
            if (edge.weight, hops[i].type) > (hops[i].weight, edge.type):
                hops[i] = edge
    return [GraphPath(first[k].nodes, tuple(edges)) for k, edges in best.items()]
