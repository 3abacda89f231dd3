"""``GraphExplorer`` for the embedded store: a mixin of ``KuzuGraphStore``.

It runs named queries through the store's own helpers (``_q``, the calling thread's
connection from ``_require``) and keeps no state of its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from core.errors import StoreError
from graph_store import explore_core as core
from graph_store.explore_types import (
    EdgeInfo,
    EntityDetails,
    GraphPath,
    PropertyInfo,
    SchemaDescription,
    TableInfo,
)
from graph_store.kuzu import guard as kuzu_guard
from graph_store.types import ChunkHit, EntityHit

# Tables the store keeps for itself (schema version, embedding model), not graph content.
_INTERNAL_TABLES = frozenset({"Meta"})


class _KuzuHost(Protocol):
    """What the mixin uses of ``KuzuGraphStore``."""

    def _q(self, name: str, **params: Any) -> list[list[Any]]: ...

    def _require(self) -> Any: ...

    def _writing(self) -> contextlib.AbstractContextManager[None]: ...

    def _reading(self) -> contextlib.AbstractContextManager[None]: ...

    def _ensure_fulltext(self) -> None: ...

    def _ensure_vectors(self) -> None: ...

    def fulltext_aliases(self, query: str, k: int) -> list[EntityHit]: ...

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[ChunkHit]: ...


class KuzuExploreMixin:
    def lookup_entities(self: _KuzuHost, q: str, k: int = 10) -> list[EntityHit]:
        return core.lookup(self._q, self.fulltext_aliases, q, k)

    def entity_details(self: _KuzuHost, entity_id: str) -> EntityDetails:
        return core.details(self._q, entity_id)

    def edge_evidence(self: _KuzuHost, source_id: str, target_id: str) -> list[EdgeInfo]:
        return core.evidence(self._q, self.get_chunks, source_id, target_id)

    def paths(
        self: _KuzuHost, from_id: str, to_id: str, max_hops: int = 3, limit: int = 20
    ) -> list[GraphPath]:
        return core.paths(self._q, from_id, to_id, max_hops, limit, _path)

    def describe_schema(self: _KuzuHost) -> SchemaDescription:
        conn = self._require()
        with self._reading():
            try:
                # Kùzu's TABLE_INFO / SHOW_CONNECTION take literal table names only; the binding's
                # catalogue helpers read them without our building query text.
                node_tables = sorted(conn._get_node_table_names())
                rel_tables = sorted(conn._get_rel_table_names(), key=lambda t: t["name"])
                nodes = tuple(
                    TableInfo(name, _properties(conn._get_node_property_names(name)))
                    for name in node_tables
                    if name not in _INTERNAL_TABLES
                )
                rels = tuple(
                    TableInfo(
                        t["name"],
                        _properties(conn._get_node_property_names(t["name"])),
                        source=t["src"],
                        target=t["dst"],
                    )
                    for t in rel_tables
                )
            except RuntimeError as exc:
                raise StoreError(f"cannot read the embedded graph's schema: {exc}") from exc
        kinds = self._q("explore_relation_types", limit=core.SCHEMA_VALUES)
        types = self._q("explore_entity_types", limit=core.SCHEMA_VALUES)
        return SchemaDescription(
            dialect="kuzu",
            nodes=nodes,
            relationships=rels,
            relation_types=tuple(r[0] for r in kinds),
            entity_types=tuple(r[0] for r in types),
        )

    def run_read_only(
        self: _KuzuHost,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float = 30.0,
        max_rows: int = 1000,
    ) -> list[dict[str, Any]]:
        checked = kuzu_guard.check(query)
        if checked.uses_fulltext or checked.uses_vectors:
            with self._writing():  # indexes are rebuilt lazily after writes: kuzu_indexes.py
                if checked.uses_fulltext:
                    self._ensure_fulltext()
                if checked.uses_vectors:
                    self._ensure_vectors()
        with self._reading():
            return kuzu_guard.run_read_only(self._require(), query, params, timeout_s, max_rows)


def _path(row: Sequence[Any]) -> GraphPath:
    """An ``explore_paths`` row: node ids, names, types and internal ids, then per relation
    its source's internal id, type, weight and evidence."""
    ids, names, types, internal, sources, rtypes, weights, evidence = row
    forward = [src == internal[i] for i, src in enumerate(sources)]
    return core.graph_path(
        list(zip(ids, names, types, strict=True)),
        list(zip(forward, rtypes, weights, evidence, strict=True)),
    )


def _properties(info: Mapping[str, Mapping[str, Any]]) -> tuple[PropertyInfo, ...]:
    """Property names and types; fixed-size vectors (embeddings) are left out, as no query
    writer can use them as values."""
    return tuple(
        PropertyInfo(name, str(p["type"]) + "[]" * int(p.get("dimension", 0)))
        for name, p in info.items()
        if "shape" not in p
    )
