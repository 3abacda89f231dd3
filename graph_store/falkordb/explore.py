"""``GraphExplorer`` for the FalkorDB store: a mixin of ``FalkorGraphStore``, over the shared
logic of ``explore_core`` and the named queries of cypher/falkordb.

Untrusted Cypher runs as ``GRAPH.RO_QUERY``, which FalkorDB refuses for anything that writes
(clauses and write procedures alike). Two things it would still run are refused here first:
``LOAD CSV`` (reads files of the server's machine) and a second statement."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from core.errors import ReadOnlyViolation, StoreError
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
from graph_store.types import ChunkHit, EntityHit

_INTERNAL_LABELS = frozenset({"Meta"})
_HIDDEN_TYPES = frozenset({"Vectorf32"})  # embeddings: no query writer uses them as values
_SCHEMA_SAMPLE = 20_000  # nodes / relationships sampled for property names and types
# String literals and comments are blanked before looking for refused keywords.
_LITERALS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.S)
_LOAD = re.compile(r"\bLOAD\s+CSV\b", re.I)


class _Host(Protocol):
    def _read(self, name: str, **params: Any) -> list[list[Any]]: ...

    def _require(self) -> Any: ...

    def _unavailable(self, exc: Exception, during: str = "") -> Exception: ...

    def fulltext_aliases(self, query: str, k: int) -> list[EntityHit]: ...

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[ChunkHit]: ...


class FalkorExploreMixin:
    def lookup_entities(self: _Host, q: str, k: int = 10) -> list[EntityHit]:
        return core.lookup(self._read, self.fulltext_aliases, q, k)

    def entity_details(self: _Host, entity_id: str) -> EntityDetails:
        return core.details(self._read, entity_id)

    def edge_evidence(self: _Host, source_id: str, target_id: str) -> list[EdgeInfo]:
        return core.evidence(self._read, self.get_chunks, source_id, target_id)

    def paths(
        self: _Host, from_id: str, to_id: str, max_hops: int = 3, limit: int = 20
    ) -> list[GraphPath]:
        return core.paths(self._read, from_id, to_id, max_hops, limit, _path)

    def entity_ranks(self: _Host, entity_ids: Sequence[str]) -> dict[str, EntityRank]:
        return core.ranks(self._read, entity_ids)

    def graph_details(self: _Host) -> GraphDetails:
        return core.graph_details(self._read)

    def describe_schema(self: _Host) -> SchemaDescription:
        props: dict[str, list[PropertyInfo]] = {}
        for label, key, kind in self._read("explore_node_properties", sample=_SCHEMA_SAMPLE):
            if label not in _INTERNAL_LABELS and kind not in _HIDDEN_TYPES:
                props.setdefault(label, []).append(PropertyInfo(key, kind))
        nodes = tuple(TableInfo(name, tuple(ps)) for name, ps in sorted(props.items()))
        rels: dict[tuple[str, str, str], list[PropertyInfo]] = {}
        for rtype, src, dst, key, kind in self._read(
            "explore_rel_properties", sample=_SCHEMA_SAMPLE
        ):
            found = rels.setdefault((rtype, src, dst), [])
            if key is not None:
                found.append(PropertyInfo(key, kind))
        relationships = tuple(
            TableInfo(name, tuple(ps), source=src, target=dst)
            for (name, src, dst), ps in sorted(rels.items())
        )
        kinds = self._read("explore_relation_types", limit=core.SCHEMA_VALUES)
        types = self._read("explore_entity_types", limit=core.SCHEMA_VALUES)
        return SchemaDescription(
            dialect="falkordb",
            nodes=nodes,
            relationships=relationships,
            relation_types=tuple(r[0] for r in kinds),
            entity_types=tuple(r[0] for r in types),
        )

    def run_read_only(
        self: _Host,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float = 30.0,
        max_rows: int = 1000,
    ) -> list[dict[str, Any]]:
        import redis

        check(query)
        graph = self._require()
        try:
            result = graph.ro_query(
                query, dict(params or {}), timeout=max(1, int(timeout_s * 1000))
            )
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise self._unavailable(exc) from exc
        except redis.exceptions.ResponseError as exc:
            if "read-only" in str(exc):
                raise ReadOnlyViolation(f"refused: the query writes ({exc})") from exc
            if "timed out" in str(exc).lower():
                raise StoreError(
                    f"the query ran longer than {timeout_s:g} s and was stopped"
                ) from exc
            raise StoreError(f"read-only query failed: {exc}") from exc
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"read-only query failed: {exc}") from exc
        columns = [str(h[1]) for h in result.header]
        return [
            {c: plain(v) for c, v in zip(columns, row, strict=True)}
            for row in result.result_set[: max(1, max_rows)]
        ]


def check(query: str) -> None:
    """Refuse what GRAPH.RO_QUERY would run but a read-only caller must not: LOAD CSV, and
    more than one statement."""
    bare = _LITERALS.sub("''", query)
    if _LOAD.search(bare):
        raise ReadOnlyViolation("refused: LOAD CSV reads files of the database's machine")
    if ";" in bare.strip().rstrip(";"):
        raise ReadOnlyViolation("refused: one statement at a time")


def plain(value: Any) -> Any:
    """Nodes and relationships as their properties (with their label or type), embeddings
    left out; lists and maps element by element."""
    from falkordb import Edge, Node, Path

    if isinstance(value, Node):
        props = {k: plain(v) for k, v in value.properties.items() if k != "embedding"}
        return {"_label": (value.labels or [""])[0], **props}
    if isinstance(value, Edge):
        return {"_type": value.relation, **{k: plain(v) for k, v in value.properties.items()}}
    if isinstance(value, Path):
        return {
            "nodes": [plain(n) for n in value.nodes()],
            "edges": [plain(e) for e in value.edges()],
        }
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def _path(row: Sequence[Any]) -> GraphPath:
    """An ``explore_paths`` row: node ids, names and types, then per relation whether it runs
    along the path, its type, weight and evidence."""
    ids, names, types, forward, rtypes, weights, evidence = row
    return core.graph_path(
        list(zip(ids, names, types, strict=True)),
        list(zip(forward, rtypes, weights, evidence, strict=True)),
    )
