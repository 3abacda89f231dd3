"""Reads both adapters answer the same way, by named queries of the same name and row shape:
document states, existing entities, alias targets, documents and chunks by id. A mixin; each
adapter supplies ``_read`` (its own dialect's query file, run on its own connection)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from graph_store.rows import to_chunk_hit, to_document_info, to_fact_hit
from graph_store.types import ChunkHit, DocumentInfo, DocumentState, FactHit

FACT_KINDS = ("max", "min", "amount")


class _Host(Protocol):
    def _read(self, name: str, **params: Any) -> list[list[Any]]: ...


class NamedReadsMixin:
    def _neighbour_rows(self: _Host, entity_id: str, hops: int, limit: int) -> list[list[Any]]:
        """(id, name, type, hops) of the entities within ``hops`` (1..3) RELATED hops, nearest
        and most mentioned first. A query per depth: one bounded by $hops would still search
        three hops (a bound cannot be a parameter), and from a hub three hops reach much of
        the graph (2Wiki, one hop: Neo4j p50 / p95 62 / 1,487 ms that way, 6 / 18 ms alone)."""
        if hops == 1:
            return self._read("neighbourhood_one_hop", id=entity_id, limit=max(1, limit))
        if hops == 2:
            return self._read("neighbourhood_two_hops", id=entity_id, limit=max(1, limit))
        return self._read("neighbourhood", id=entity_id, hops=hops, limit=max(1, limit))

    def document_states(self: _Host, doc_ids: Sequence[str]) -> dict[str, DocumentState]:
        if not doc_ids:
            return {}
        rows = self._read("document_states", ids=list(doc_ids))
        return {r[0]: DocumentState(r[0], r[1], r[2]) for r in rows}

    def existing_entity_ids(self: _Host, entity_ids: Sequence[str]) -> set[str]:
        if not entity_ids:
            return set()
        return {r[0] for r in self._read("entities_existing", ids=list(entity_ids))}

    def alias_targets(self: _Host, keys: Sequence[str]) -> dict[str, str]:
        if not keys:
            return {}
        out: dict[str, str] = {}
        for key, entity_id in self._read("alias_targets", keys=list(keys)):
            out.setdefault(key, entity_id)  # rows come most-mentioned first
        return out

    def find_documents(self: _Host, key: str) -> list[DocumentInfo]:
        return [to_document_info(r) for r in self._read("documents_find", key=key)]

    def get_chunks(self: _Host, chunk_ids: Sequence[str]) -> list[ChunkHit]:
        if not chunk_ids:
            return []
        rows = self._read("chunks_get", ids=list(chunk_ids))
        by_id = {r[0]: to_chunk_hit(r, 0.0) for r in rows}
        return [by_id[c] for c in chunk_ids if c in by_id]

    def document_chunks(self: _Host, doc_id: str) -> list[ChunkHit]:
        return [to_chunk_hit(r, 0.0) for r in self._read("document_chunks", id=doc_id)]

    def numeric_facts(
        self: _Host, kinds: Sequence[str] = FACT_KINDS, limit: int = 10_000
    ) -> list[FactHit]:
        """Stored numeric facts of the given kinds ("max"/"min": the threshold catalogue)."""
        rows = self._read("numeric_facts_list", kinds=list(kinds), limit=max(1, limit))
        return [to_fact_hit(r) for r in rows]
