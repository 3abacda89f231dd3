"""``GraphExplorer`` for the embedded store: a mixin of ``KuzuGraphStore``.

It runs named queries through the store's own helpers (``_q``, the calling thread's
connection from ``_require``) and keeps no state of its own.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import cypher
from core.errors import StoreError
from graph_store import explore_core as core
from graph_store.explore_types import (
    EdgeInfo,
    EntityDetails,
    EntityRank,
    GraphDetails,
    GraphPath,
    PropertyInfo,
    SchemaDescription,
    TableInfo,
)
from graph_store.kuzu import guard as kuzu_guard
from graph_store.kuzu.indexes import VECTOR_INDEXES
from graph_store.types import ChunkHit, EntityHit

# Tables the store keeps for itself (schema version, embedding model), not graph content.
_INTERNAL_TABLES = frozenset({"Meta"})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_VECTOR = re.compile(r"\[\d+\]$")


class _KuzuHost(Protocol):
    """What the mixin uses of ``KuzuGraphStore``."""

    def _q(self, name: str, **params: Any) -> list[list[Any]]: ...

    def _require(self) -> Any: ...

    def _run_raw(self, text: str, params: dict[str, Any] | None = None) -> list[list[Any]]: ...

    def _writing(self) -> contextlib.AbstractContextManager[None]: ...

    def _reading(self) -> contextlib.AbstractContextManager[None]: ...

    def _snapshot(self) -> contextlib.AbstractContextManager[None]: ...

    def _prepare_fulltext(self) -> None: ...

    def _ensure_fulltext(self) -> None: ...

    def _ensure_vectors(self, names: tuple[str, ...]) -> None: ...

    def fulltext_aliases(self, query: str, k: int) -> list[EntityHit]: ...

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[ChunkHit]: ...


class KuzuExploreMixin:
    """Each read of several queries reads one snapshot (``_snapshot``): a commit meanwhile is
    in none of its parts."""

    def lookup_entities(self: _KuzuHost, q: str, k: int = 10) -> list[EntityHit]:
        self._prepare_fulltext()  # not inside the snapshot, which cannot build an index
        with self._snapshot():
            return core.lookup(self._q, self.fulltext_aliases, q, k)

    def entity_details(self: _KuzuHost, entity_id: str) -> EntityDetails:
        with self._snapshot():
            return core.details(self._q, entity_id)

    def edge_evidence(self: _KuzuHost, source_id: str, target_id: str) -> list[EdgeInfo]:
        with self._snapshot():
            return core.evidence(self._q, self.get_chunks, source_id, target_id)

    def paths(
        self: _KuzuHost, from_id: str, to_id: str, max_hops: int = 3, limit: int = 20
    ) -> list[GraphPath]:
        with self._snapshot():
            return core.paths(self._q, from_id, to_id, max_hops, limit, _path)

    def entity_ranks(self: _KuzuHost, entity_ids: Sequence[str]) -> dict[str, EntityRank]:
        return core.ranks(self._q, entity_ids)

    def graph_details(self: _KuzuHost) -> GraphDetails:
        return core.graph_details(self._q)

    def describe_schema(self: _KuzuHost) -> SchemaDescription:
        # Through Kùzu's public catalogue functions, not the binding's private helpers, so the
        # adapter survives a binding (or LadybugDB) without them.
        tables = [(r[0], r[1]) for r in self._q("explore_tables") if r[0] not in _INTERNAL_TABLES]
        nodes = tuple(
            TableInfo(name, _properties(_catalogue(self, "explore_table_properties", name)))
            for name, kind in tables
            if kind == "NODE"
        )
        rels = []
        for name, kind in tables:
            if kind != "REL":
                continue
            ends = _catalogue(self, "explore_table_ends", name)
            if not ends:
                raise StoreError(f"the embedded graph's table {name} has no node tables")
            rels.append(
                TableInfo(
                    name,
                    _properties(_catalogue(self, "explore_table_properties", name)),
                    source=ends[0][0],
                    target=ends[0][1],
                )
            )
        kinds = self._q("explore_relation_types", limit=core.SCHEMA_VALUES)
        types = self._q("explore_entity_types", limit=core.SCHEMA_VALUES)
        return SchemaDescription(
            dialect="kuzu",
            nodes=nodes,
            relationships=tuple(rels),
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
                    self._ensure_vectors(VECTOR_INDEXES)
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


def _catalogue(host: _KuzuHost, query: str, table: str) -> list[list[Any]]:
    """A catalogue query over one table. Kùzu binds these names only as literals, so the name,
    which comes from SHOW_TABLES and not from a caller, must be a plain identifier."""
    if not _IDENTIFIER.fullmatch(table):
        raise StoreError(f"the embedded graph has a table named {table!r}; cannot describe it")
    return host._run_raw(cypher.load("kuzu", query).replace("{table}", table))


def _properties(rows: Sequence[Sequence[Any]]) -> tuple[PropertyInfo, ...]:
    """Property names and types; fixed-size vectors (embeddings, ``FLOAT[384]``) are left
    out, as no query writer can use them as values."""
    return tuple(PropertyInfo(name, kind) for name, kind in rows if not _VECTOR.search(kind))
