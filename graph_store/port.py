"""The ``GraphStore`` port: what kg-first needs from a graph database.

Adapters (embedded Kùzu, Neo4j) implement it; nothing outside ``graph_store`` knows which one
is in use. Constructors do no I/O: ``open()`` connects, ``init_schema()`` creates tables and
indexes (an explicit, idempotent step).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

from graph_schema import DocumentGraph
from graph_store.explore_port import GraphExplorer
from graph_store.types import (
    ChunkHit,
    Counts,
    DocumentInfo,
    DocumentState,
    EntityHit,
    FactHit,
    GraphExport,
    ProjectionData,
    Subgraph,
)

MAX_HOPS = 3


@runtime_checkable
class GraphStore(GraphExplorer, Protocol):
    def open(self) -> None:
        """Connect and check the stored schema version (raises SchemaVersionError)."""

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def init_schema(self) -> None:
        """Create tables, constraints and indexes; idempotent."""

    # --- writes -------------------------------------------------------------
    def upsert_documents(self, graphs: Sequence[DocumentGraph]) -> None:
        """Write documents with everything they contribute, replacing earlier versions of the
        same documents, all in one transaction."""

    def delete_document(self, doc_id: str) -> bool:
        """Delete a document, its chunks and mentions, and entities no longer mentioned."""

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        """Delete documents as ``delete_document`` does, a batch per transaction; returns how
        many were stored."""

    def refresh_indexes(self) -> None:
        """Bring derived indexes up to date after a run of writes (a no-op where the
        database maintains them itself). Authority is refreshed by the read model."""

    def set_pagerank(self, entity_scores: dict[str, float], doc_scores: dict[str, float]) -> None:
        """Store authority scores computed over the graph (``Entity.pagerank``,
        ``Document.authority``) and mark them current for this graph version."""

    def authority_stale(self) -> bool:
        """Whether the graph changed since authority was last stored."""

    # --- reads --------------------------------------------------------------
    def read_snapshot(self) -> AbstractContextManager[None]:
        """Every read of this thread inside reads one committed graph version: for a caller
        (an API route) that makes several reads to answer one request. The embedded store
        holds one read-only transaction open; a server store that answers each read from the
        version of its moment gives a context that does nothing."""
        ...

    def document_states(self, doc_ids: Sequence[str]) -> dict[str, DocumentState]: ...

    def existing_entity_ids(self, entity_ids: Sequence[str]) -> set[str]: ...

    def alias_targets(self, keys: Sequence[str]) -> dict[str, str]:
        """Entity id for each normalised alias key the graph knows (most-mentioned wins)."""

    def list_documents(self, offset: int = 0, limit: int = 50) -> list[DocumentInfo]: ...

    def find_documents(self, key: str) -> list[DocumentInfo]:
        """Documents whose id, uri or title equals ``key``."""

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[ChunkHit]: ...

    def numeric_facts(
        self, kinds: Sequence[str] = ("max", "min", "amount"), limit: int = 10_000
    ) -> list[FactHit]:
        """Numbers the documents state (``NumericFact``), of the given kinds: "max"/"min" are
        stated limits, the threshold catalogue numeric tools read."""

    def document_chunks(self, doc_id: str) -> list[ChunkHit]:
        """Every chunk of a document, in order (none for an unknown document)."""

    def vector_search_chunks(self, embedding: Sequence[float], k: int) -> list[ChunkHit]: ...

    def vector_search_entities(self, embedding: Sequence[float], k: int) -> list[EntityHit]: ...

    def fulltext_chunks(self, query: str, k: int) -> list[ChunkHit]:
        """BM25 over chunk texts; may raise ``FulltextUnavailable`` while another thread's
        write rebuilds the index (the embedded store)."""
        ...

    def fulltext_aliases(self, query: str, k: int) -> list[EntityHit]: ...

    def neighbourhood(self, entity_id: str, hops: int = 1, limit: int = 100) -> Subgraph: ...

    def export_graph(self) -> GraphExport: ...

    def counts(self) -> Counts: ...

    # --- projection -----------------------------------------------------------
    def graph_version(self) -> str:
        """A token that changes with every committed write (including authority updates)."""

    def projection_data(self) -> ProjectionData:
        """The chunk–entity graph with metadata and chunk embeddings, for in-memory retrieval
        projections (PPR, expansion, MMR) cached per ``graph_version``."""
