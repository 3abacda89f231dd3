"""``GraphExplorer`` for the Neo4j store: a mixin of ``Neo4jGraphStore``.

The queries mirror the embedded ones name for name (``cypher/neo4j/explore_*.cypher``);
``run_read_only`` is the adapter's own (``neo4j_guard``: EXPLAIN, query type, READ routing).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from core.errors import KgError, StoreError
from graph_store import explore_core as core
from graph_store.explore_port import ChatModel
from graph_store.explore_types import (
    CypherAnswer,
    EdgeInfo,
    EntityDetails,
    EntityRank,
    GraphDetails,
    GraphPath,
    PropertyInfo,
    SchemaDescription,
    TableInfo,
)
from graph_store.read_model import ChunkDetail
from graph_store.types import ChunkHit, EntityHit

# Labels the store keeps for itself (schema version, graph version), not graph content.
_INTERNAL_LABELS = frozenset({"Meta"})
# Property types Neo4j reports for embedding vectors, which no query writer can use as values.
_VECTOR_TYPES = frozenset({"FloatArray", "DoubleArray", "LIST<FLOAT>", "LIST<FLOAT NOT NULL>"})


class _Neo4jHost(Protocol):
    """What the mixin uses of ``Neo4jGraphStore``."""

    _database: str
    _vector_lock: threading.Lock
    # neo4j-graphrag's vector retriever, built once (it reads the index definition).
    _vector: Any

    def _read(self, name: str, **params: Any) -> list[list[Any]]: ...

    def _require(self) -> Any: ...

    def _errors(self) -> tuple[type[Exception], ...]: ...

    def _vector_retriever(self) -> Any: ...

    def run_read_only(
        self,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float = 30.0,
        max_rows: int = 1000,
    ) -> list[dict[str, Any]]: ...

    def fulltext_aliases(self, query: str, k: int) -> list[EntityHit]: ...

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[ChunkHit]: ...


class Neo4jExploreMixin:
    _vector: Any  # set by the adapter's constructor

    def lookup_entities(self: _Neo4jHost, q: str, k: int = 10) -> list[EntityHit]:
        return core.lookup(self._read, self.fulltext_aliases, q, k)

    def entity_details(self: _Neo4jHost, entity_id: str) -> EntityDetails:
        return core.details(self._read, entity_id)

    def edge_evidence(self: _Neo4jHost, source_id: str, target_id: str) -> list[EdgeInfo]:
        return core.evidence(self._read, self.get_chunks, source_id, target_id)

    def paths(
        self: _Neo4jHost, from_id: str, to_id: str, max_hops: int = 3, limit: int = 20
    ) -> list[GraphPath]:
        return core.paths(self._read, from_id, to_id, max_hops, limit, _path)

    def entity_ranks(self: _Neo4jHost, entity_ids: Sequence[str]) -> dict[str, EntityRank]:
        return core.ranks(self._read, entity_ids)

    def graph_details(self: _Neo4jHost) -> GraphDetails:
        return core.graph_details(self._read)

    def describe_schema(self: _Neo4jHost) -> SchemaDescription:
        node_props: dict[str, list[PropertyInfo]] = {}
        for labels, prop, types in self._read("schema_node_properties"):
            for label in labels or ():
                props = node_props.setdefault(label, [])
                if prop is not None and not _VECTOR_TYPES & set(types or ()):
                    props.append(PropertyInfo(prop, " | ".join(types or ())))
        rel_props: dict[str, list[PropertyInfo]] = {}
        for rel_type, prop, types in self._read("schema_rel_properties"):
            props = rel_props.setdefault(_unquote_type(rel_type), [])
            if prop is not None:
                props.append(PropertyInfo(prop, " | ".join(types or ())))
        nodes = tuple(
            TableInfo(label, tuple(props))
            for label, props in sorted(node_props.items())
            if label not in _INTERNAL_LABELS
        )
        rels = tuple(
            TableInfo(rtype, tuple(rel_props.get(rtype, ())), source=src, target=dst)
            for rtype, src, dst in sorted(_endpoints(self._read("schema_rel_endpoints")))
        )
        kinds = self._read("explore_relation_types", limit=core.SCHEMA_VALUES)
        types = self._read("explore_entity_types", limit=core.SCHEMA_VALUES)
        return SchemaDescription(
            dialect="neo4j",
            nodes=nodes,
            relationships=rels,
            relation_types=tuple(r[0] for r in kinds),
            entity_types=tuple(r[0] for r in types),
        )

    # --- neo4j-graphrag ------------------------------------------------------------
    def text2cypher(
        self: _Neo4jHost,
        question: str,
        llm: ChatModel,
        *,
        schema: str,
        examples: Sequence[str] = (),
        timeout_s: float = 30.0,
        max_rows: int = 200,
    ) -> CypherAnswer:
        """neo4j-graphrag's Text2CypherRetriever writes the query; it runs only through
        ``run_read_only`` (ReadOnlyViolation for anything but a plain read)."""
        from graph_store.neo4j import graphrag

        def run(query: str) -> list[dict[str, Any]]:
            return self.run_read_only(query, timeout_s=timeout_s, max_rows=max_rows)

        try:
            return graphrag.text2cypher(
                self._require(), self._database, question, llm, schema, examples, run
            )
        except KgError:
            raise
        except (*self._errors(), *_graphrag_errors()) as exc:
            raise StoreError(f"text2cypher failed: {exc}") from exc

    def graphrag_vector_chunks(self: _Neo4jHost, vector: Sequence[float], k: int) -> list[ChunkHit]:
        """Chunks nearest ``vector`` by neo4j-graphrag's VectorCypherRetriever (the read
        model's vector candidates on Neo4j); the retriever is built once per store."""
        return [
            ChunkHit(d.chunk_id, d.doc_id, d.doc_title, d.text, score, d.index)
            for score, d in Neo4jExploreMixin.graphrag_vector_details(self, vector, k)
        ]

    def graphrag_vector_details(
        self: _Neo4jHost, vector: Sequence[float], k: int
    ) -> list[tuple[float, ChunkDetail]]:
        """``graphrag_vector_chunks`` as (cosine, details) in the same one query."""
        from graph_store.neo4j import graphrag

        retriever = self._vector_retriever()
        try:
            return graphrag.vector_details(retriever, vector, k)
        except (*self._errors(), *_graphrag_errors()) as exc:
            raise StoreError(f"vector search failed: {exc}") from exc

    def _vector_retriever(self: _Neo4jHost) -> Any:
        """neo4j-graphrag's VectorCypherRetriever, built on first use (the library loads
        only where it is used)."""
        from graph_store.neo4j import graphrag

        with self._vector_lock:
            retriever = self._vector
            if retriever is None:
                try:
                    retriever = graphrag.vector_retriever(self._require(), self._database)
                except (*self._errors(), *_graphrag_errors()) as exc:
                    raise StoreError(f"cannot build the vector retriever: {exc}") from exc
                self._vector = retriever
            return retriever


def _graphrag_errors() -> tuple[type[Exception], ...]:
    from neo4j_graphrag.exceptions import Neo4jGraphRagError

    return (Neo4jGraphRagError,)


def _path(row: Sequence[Any]) -> GraphPath:
    """An ``explore_paths`` row: node ids, names and types, then per relation whether it
    points along the path, its type, weight and evidence."""
    ids, names, types, forward, rtypes, weights, evidence = row
    return core.graph_path(
        list(zip(ids, names, types, strict=True)),
        list(zip(forward, rtypes, weights, evidence, strict=True)),
    )


def _unquote_type(rel_type: str) -> str:
    """``:`RELATED``` (how db.schema.relTypeProperties names a type) → ``RELATED``."""
    return rel_type.lstrip(":").strip("`")


def _endpoints(rows: Sequence[Sequence[Any]]) -> set[tuple[str, str, str]]:
    out = set()
    for rtype, sources, targets in rows:
        for src in sources or ():
            for dst in targets or ():
                if src not in _INTERNAL_LABELS and dst not in _INTERNAL_LABELS:
                    out.add((str(rtype), str(src), str(dst)))
    return out
