"""The read side of ``Neo4jGraphStore`` (a mixin): documents, chunks, index searches,
neighbourhoods, counts and the whole-graph reads. Every query is a named ``.cypher`` file run
through the adapter's ``_read``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from core.errors import StoreError
from graph_store.named_reads import NamedReadsMixin
from graph_store.neo4j.rows import cosine_from_score, escape_lucene, validated_hops
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
    """What the mixin uses of ``Neo4jGraphStore``."""

    _dim: int

    def _read(self, name: str, **params: Any) -> list[list[Any]]: ...

    def _neighbour_rows(self, entity_id: str, hops: int, limit: int) -> list[list[Any]]: ...

    def _columns(self, name: str) -> Any: ...

    def _meta(self, key: str) -> str | None: ...

    def _vec(self, embedding: Sequence[float]) -> list[float]: ...

    def graph_version(self) -> str: ...


class Neo4jReadsMixin(NamedReadsMixin):
    def list_documents(self: _Host, offset: int = 0, limit: int = 50) -> list[DocumentInfo]:
        rows = self._read("documents_list", offset=max(0, offset), limit=max(0, limit))
        return [to_document_info(r) for r in rows]

    def vector_search_chunks(self: _Host, embedding: Sequence[float], k: int) -> list[ChunkHit]:
        k = max(1, k)
        rows = self._read(
            "vector_chunks", embedding=self._vec(embedding), k=k, candidates=_candidates(k)
        )
        return [to_chunk_hit(r, cosine_from_score(r[5])) for r in rows]

    def vector_search_entities(self: _Host, embedding: Sequence[float], k: int) -> list[EntityHit]:
        k = max(1, k)
        rows = self._read(
            "vector_entities", embedding=self._vec(embedding), k=k, candidates=_candidates(k)
        )
        return [EntityHit(r[0], r[1], r[2], cosine_from_score(r[3])) for r in rows]

    def fulltext_chunks(self: _Host, query: str, k: int) -> list[ChunkHit]:
        lucene = escape_lucene(query)
        if not lucene:
            return []
        rows = self._read("fulltext_chunks", query=lucene, k=max(1, k))
        return [to_chunk_hit(r, float(r[5])) for r in rows]

    def fulltext_aliases(self: _Host, query: str, k: int) -> list[EntityHit]:
        lucene = escape_lucene(query)
        if not lucene:
            return []
        rows = self._read("fulltext_aliases", query=lucene, k=max(1, k))
        return [EntityHit(r[0], r[1], r[2], float(r[3]), matched=r[4]) for r in rows]

    def neighbourhood(self: _Host, entity_id: str, hops: int = 1, limit: int = 100) -> Subgraph:
        hops = validated_hops(hops, MAX_HOPS)
        start = self._read("entity_get", id=entity_id)
        if not start:
            return Subgraph()
        rows = self._neighbour_rows(entity_id, hops, limit)
        nodes = [GraphNode(start[0][0], "Entity", start[0][1], start[0][2], 0)]
        nodes += [GraphNode(r[0], "Entity", r[1], r[2], int(r[3])) for r in rows]
        edges = [
            GraphEdge(r[0], r[1], r[2], float(r[3]), tuple(r[4] or ()))
            for r in self._read("relations_among", ids=[n.id for n in nodes])
        ]
        return Subgraph(nodes=nodes, edges=edges)

    def export_graph(self: _Host) -> GraphExport:
        return read_graph_export(lambda name: self._read(name))

    def counts(self: _Host) -> Counts:
        return Counts(*(int(v) for v in self._read("counts")[0]))

    def graph_version(self: _Host) -> str:
        return self._meta("graph_version") or ""

    def projection_data(self: _Host) -> ProjectionData:
        """The whole graph, for the in-memory read model (without GDS, or with
        ``KG_NEO4J__READ_MODEL=memory``); vectors packed as they stream."""
        return read_projection(self.graph_version(), lambda name: self._read(name), self._columns)

    def _vec(self: _Host, embedding: Sequence[float]) -> list[float]:
        vec = [float(x) for x in embedding]
        if len(vec) != self._dim:
            raise StoreError(f"query embedding has {len(vec)} dimensions, the store {self._dim}")
        return vec


def _candidates(k: int) -> int:
    """How wide the approximate vector index searches for a top ``k``: 4k, at least 64 (see
    cypher/neo4j/vector_chunks.cypher)."""
    return max(4 * k, 64)
