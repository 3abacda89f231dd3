"""The read side of ``FalkorGraphStore`` (a mixin): documents, chunks, index searches,
neighbourhoods, counts and the whole-graph reads, each a named ``cypher/falkordb`` query run
as ``GRAPH.RO_QUERY`` through the store's ``_read``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from core.errors import StoreError
from graph_store.falkordb.lexical import LexicalIndexes
from graph_store.named_reads import NamedReadsMixin
from graph_store.port import MAX_HOPS
from graph_store.rows import read_graph_export, read_projection, to_chunk_hit, to_document_info
from graph_store.types import (
    ChunkHit,
    Counts,
    DocumentInfo,
    EntityHit,
    GraphEdge,
    GraphExport,
    GraphNode,
    ProjectionData,
    Subgraph,
)


class _Host(Protocol):
    _dim: int
    _lexical: LexicalIndexes

    def _read(self, name: str, **params: Any) -> list[list[Any]]: ...

    def _neighbour_rows(self, entity_id: str, hops: int, limit: int) -> list[list[Any]]: ...

    def _meta(self, key: str) -> str | None: ...

    def graph_version(self) -> str: ...


def candidates(k: int) -> int:
    """How wide the approximate (HNSW) vector index searches for a top ``k``: 4k, at least 64,
    as on Neo4j (cypher/neo4j/vector_chunks.cypher says why)."""
    return max(4 * k, 64)


class FalkorReadsMixin(NamedReadsMixin):
    def list_documents(self: _Host, offset: int = 0, limit: int = 50) -> list[DocumentInfo]:
        rows = self._read("documents_list", offset=max(0, offset), limit=max(0, limit))
        return [to_document_info(r) for r in rows]

    def vector_search_chunks(self: _Host, embedding: Sequence[float], k: int) -> list[ChunkHit]:
        k = max(1, k)
        rows = self._read(
            "vector_chunks", embedding=_vec(self, embedding), k=k, candidates=candidates(k)
        )
        return [to_chunk_hit(r, 1.0 - float(r[5])) for r in rows]

    def vector_search_entities(self: _Host, embedding: Sequence[float], k: int) -> list[EntityHit]:
        k = max(1, k)
        rows = self._read(
            "vector_entities", embedding=_vec(self, embedding), k=k, candidates=candidates(k)
        )
        return [EntityHit(r[0], r[1], r[2] or "", 1.0 - float(r[3])) for r in rows]

    def fulltext_chunks(self: _Host, query: str, k: int) -> list[ChunkHit]:
        """BM25 over the chunk texts, any word of ``query`` (lexical.py says why not
        RediSearch's scores); query syntax in ``query`` is words."""
        rows, bm25 = self._lexical.get("fulltext_chunks", 3)
        return [to_chunk_hit(rows[i], score) for i, score in bm25.top(query, max(1, k))]

    def fulltext_aliases(self: _Host, query: str, k: int) -> list[EntityHit]:
        """The entities of the ``k`` best aliases by BM25 over alias names, best first."""
        rows, bm25 = self._lexical.get("fulltext_aliases", 0)
        hits = [
            EntityHit(e[0], e[1], e[2] or "", score, matched=rows[i][0])
            for i, score in bm25.top(query, max(1, k))
            for e in rows[i][1]
        ]
        return sorted(hits, key=lambda h: (-h.score, h.entity_id))

    def neighbourhood(self: _Host, entity_id: str, hops: int = 1, limit: int = 100) -> Subgraph:
        hops = max(1, min(MAX_HOPS, hops))
        start = self._read("entity_get", id=entity_id)
        if not start:
            return Subgraph()
        rows = self._neighbour_rows(entity_id, hops, limit)
        nodes = [GraphNode(start[0][0], "Entity", start[0][1], start[0][2] or "", 0)]
        nodes += [GraphNode(r[0], "Entity", r[1], r[2] or "", int(r[3])) for r in rows]
        edges = [
            GraphEdge(r[0], r[1], r[2], float(r[3]), tuple(r[4] or ()))
            for r in self._read("relations_among", ids=[n.id for n in nodes])
        ]
        return Subgraph(nodes=nodes, edges=edges)

    def export_graph(self: _Host) -> GraphExport:
        return read_graph_export(lambda name: self._read(name))

    def counts(self: _Host) -> Counts:
        rows = self._read("counts")  # none for a graph never written (no key yet)
        return Counts(*(int(v) for v in rows[0])) if rows else Counts(0, 0, 0, 0, 0, 0)

    def projection_data(self: _Host) -> ProjectionData:
        return read_projection(self.graph_version(), lambda name: self._read(name))


def _vec(host: _Host, embedding: Sequence[float]) -> list[float]:
    vec = [float(x) for x in embedding]
    if len(vec) != host._dim:
        raise StoreError(f"query embedding has {len(vec)} dimensions, the store {host._dim}")
    return vec
