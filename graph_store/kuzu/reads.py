"""Reads of the embedded store (documents, chunks, searches, neighbourhoods): a mixin of
``KuzuGraphStore``, beside its writes (``write.py``) and indexes (``indexes.py``).

It runs named queries through the store's own helpers and keeps no state of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from core.errors import FulltextUnavailable
from graph_store.named_reads import NamedReadsMixin
from graph_store.port import MAX_HOPS
from graph_store.rows import read_graph_export, to_chunk_hit, to_document_info
from graph_store.types import (
    ChunkHit,
    Counts,
    DocumentInfo,
    EntityHit,
    GraphEdge,
    GraphExport,
    GraphNode,
    Subgraph,
)


class _KuzuReadHost(Protocol):
    """What the mixin uses of ``KuzuGraphStore``."""

    def _read(self, name: str, **params: Any) -> list[list[Any]]: ...

    def _neighbour_rows(self, entity_id: str, hops: int, limit: int) -> list[list[Any]]: ...

    def _vector_query(self, index: str, name: str, **params: Any) -> list[list[Any]]: ...

    def _fulltext(self, name: str, **params: Any) -> list[list[Any]] | None: ...

    def _snapshot(self) -> AbstractContextManager[None]: ...

    def _vec(self, embedding: Sequence[float]) -> list[float]: ...

    def counts(self) -> Counts: ...


class KuzuReadMixin(NamedReadsMixin):
    def list_documents(self: _KuzuReadHost, offset: int = 0, limit: int = 50) -> list[DocumentInfo]:
        # Kùzu 0.11.3 crashes the process (SIGSEGV) on SKIP values far past the row count, so
        # a page that starts beyond the last document is answered without asking.
        if offset >= self.counts().documents:
            return []
        rows = self._read(
            "documents_list", offset=max(0, offset), limit=max(0, min(limit, 100_000))
        )
        return [to_document_info(r) for r in rows]

    def vector_search_chunks(
        self: _KuzuReadHost, embedding: Sequence[float], k: int
    ) -> list[ChunkHit]:
        rows = self._vector_query(
            "chunk_emb", "vector_chunks", embedding=self._vec(embedding), k=max(1, k)
        )
        return [to_chunk_hit(r, 1.0 - float(r[5])) for r in rows]

    def vector_search_entities(
        self: _KuzuReadHost, embedding: Sequence[float], k: int
    ) -> list[EntityHit]:
        rows = self._vector_query(
            "entity_emb", "vector_entities", embedding=self._vec(embedding), k=max(1, k)
        )
        return [EntityHit(r[0], r[1], r[2], 1.0 - float(r[3])) for r in rows]

    def fulltext_chunks(self: _KuzuReadHost, query: str, k: int) -> list[ChunkHit]:
        if not query.strip():
            return []
        rows = self._fulltext("fulltext_chunks", query=query, k=max(1, k))
        if rows is None:
            raise FulltextUnavailable("the full-text index is being rebuilt by a write in progress")
        return [to_chunk_hit(r, float(r[5])) for r in rows]

    def fulltext_aliases(self: _KuzuReadHost, query: str, k: int) -> list[EntityHit]:
        if not query.strip():
            return []
        # A lookup has exact and prefix tiers of its own while a write rebuilds the index.
        rows = self._fulltext("fulltext_aliases", query=query, k=max(1, k)) or []
        return [EntityHit(r[0], r[1], r[2], float(r[3]), matched=r[4]) for r in rows]

    def neighbourhood(
        self: _KuzuReadHost, entity_id: str, hops: int = 1, limit: int = 100
    ) -> Subgraph:
        hops = max(1, min(MAX_HOPS, hops))
        with self._snapshot():  # its three queries read one version
            start = self._read("entity_get", id=entity_id)
            if not start:
                return Subgraph()
            rows = self._neighbour_rows(entity_id, hops, limit)
            nodes = [GraphNode(start[0][0], "Entity", start[0][1], start[0][2], 0)]
            nodes += [GraphNode(r[0], "Entity", r[1], r[2], int(r[3])) for r in rows]
            ids = [n.id for n in nodes]
            edges = [
                GraphEdge(r[0], r[1], r[2], float(r[3]), tuple(r[4]))
                for r in self._read("relations_among", ids=ids)
            ]
        return Subgraph(nodes=nodes, edges=edges)

    def export_graph(self: _KuzuReadHost) -> GraphExport:
        return read_graph_export(lambda name: self._read(name))

    def counts(self: _KuzuReadHost) -> Counts:
        row = self._read("counts")[0]
        return Counts(*(int(v) for v in row))
