"""Pure planning for the FalkorDB adapter's writes: the rows a batch brings (folded so that
every MERGE key appears once per query) and the list of named write queries that replace or
delete documents, run by the store as one MULTI/EXEC block. No I/O here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graph_schema import DocumentGraph, Entity
from graph_store.rows import (
    alias_rows,
    chunk_rows,
    document_params,
    entity_row,
    numeric_fact_rows,
    relation_rows,
)

Query = tuple[str, dict[str, Any]]
Row = dict[str, Any]


@dataclass
class Stored:
    """What the store holds for a batch's documents, read before the block."""

    present: list[str] = field(default_factory=list)
    chunks: set[str] = field(default_factory=set)
    mentioned: set[str] = field(default_factory=set)


@dataclass
class Batch:
    doc_ids: list[str]
    documents: list[Row]
    chunks: list[Row]
    entities: list[Row]
    bare_entities: set[str]  # named without an embedding: must already be in the graph
    mentions: list[Row]
    aliases: list[Row]
    relations: list[Row]
    same_as: list[Row]
    numeric_facts: list[Row]

    @classmethod
    def of(cls, graphs: Sequence[DocumentGraph], dim: int) -> Batch:
        """Rows of a batch, a document given twice counting once (the last wins); raises
        StoreError for a row of the wrong shape before anything is written."""
        from graph_store.rows import same_as_rows

        by_id = {g.document.id: g for g in graphs}
        ordered = [by_id[d] for d in sorted(by_id)]
        entities: dict[str, Entity] = {}
        for g in ordered:
            for e in g.entities:
                entities.setdefault(e.id, e)  # the first occurrence wins
        return cls(
            doc_ids=[g.document.id for g in ordered],
            documents=[document_params(g.document) for g in ordered],
            chunks=[row for g in ordered for row in chunk_rows(g.chunks, dim)],
            entities=[entity_row(e, dim) for e in entities.values() if e.embedding],
            bare_entities={i for i, e in entities.items() if not e.embedding},
            mentions=list(
                {
                    (m.chunk_id, m.entity_id): {
                        "chunk_id": m.chunk_id,
                        "entity_id": m.entity_id,
                        "count": m.count,
                    }
                    for g in ordered
                    for m in g.mentions
                }.values()
            ),
            aliases=_fold_aliases(
                row for g in ordered for row in alias_rows(g.aliases, g.document.id)
            ),
            relations=_fold_relations(row for g in ordered for row in relation_rows(g.relations)),
            same_as=same_as_rows(ordered),
            numeric_facts=numeric_fact_rows(ordered),
        )

    def chunk_ids(self) -> set[str]:
        return {r["id"] for r in self.chunks}

    def entity_ids(self) -> set[str]:
        return {r["id"] for r in self.entities} | self.bare_entities


def _fold_aliases(rows: Any) -> list[Row]:
    """One row per (alias, entity) across the batch: provenance united, best confidence."""
    out: dict[tuple[str, str], Row] = {}
    for r in rows:
        key = (r["normalized"], r["entity_id"])
        if key not in out:
            out[key] = dict(r)
            continue
        kept = out[key]
        kept["doc_ids"] = sorted(set(kept["doc_ids"]) | set(r["doc_ids"]))
        kept["confidence"] = max(kept["confidence"], r["confidence"])
    return list(out.values())


def _fold_relations(rows: Any) -> list[Row]:
    """One row per (source, target, type) across the batch: evidence united, best weight."""
    out: dict[tuple[str, str, str], Row] = {}
    for r in rows:
        key = (r["source_id"], r["target_id"], r["type"])
        if key not in out:
            out[key] = dict(r)
            continue
        kept = out[key]
        kept["evidence"] = sorted(set(kept["evidence"]) | set(r["evidence"]))
        kept["weight"] = max(kept["weight"], r["weight"])
    return list(out.values())


def _take_back(stored: Stored) -> list[Query]:
    """Remove what stored documents contributed, keeping their document and chunk nodes."""
    out: list[Query] = []
    if stored.mentioned and stored.chunks:
        out.append(
            (
                "relations_strip_chunks",
                {"entity_ids": sorted(stored.mentioned), "chunk_ids": sorted(stored.chunks)},
            )
        )
    out.append(("aliases_strip_documents", {"ids": stored.present}))
    out.append(("documents_delete_mentions", {"ids": stored.present}))
    # A document's numbers are replaced whole: deleted by document, written afresh.
    out.append(("numeric_facts_delete", {"ids": stored.present}))
    return out


def _cleanup(stored: Stored, candidates: set[str], recount: set[str]) -> list[Query]:
    """Relations and alias links left without support, entities nothing mentions, mention
    counts, and aliases naming nothing."""
    out: list[Query] = []
    if stored.mentioned:
        out.append(("relations_delete_unsupported", {"entity_ids": sorted(stored.mentioned)}))
    if stored.present:
        out.append(("aliases_delete_unsupported", {}))
    if candidates:
        out.append(("entities_delete_orphans", {"entity_ids": sorted(candidates)}))
    if recount:
        out.append(("entities_count_mentions", {"ids": sorted(recount)}))
    if stored.present or candidates:
        out.append(("aliases_delete_orphans", {}))
    return out


def upsert(batch: Batch, stored: Stored) -> list[Query]:
    """The write block of a batch: take back what earlier versions contributed, merge the new
    rows, clean up. A new document (the common case) skips every scan."""
    out: list[Query] = []
    if stored.present:
        out += _take_back(stored)
        gone = stored.chunks - batch.chunk_ids()
        if gone:
            out.append(("chunks_delete", {"ids": sorted(gone)}))
    for name, rows in (
        ("documents_merge", batch.documents),
        ("chunks_merge", batch.chunks),
        ("entities_merge", batch.entities),
        ("mentions_merge", batch.mentions),
        ("aliases_merge", batch.aliases),
        ("relations_merge", batch.relations),
        ("numeric_facts_merge", batch.numeric_facts),
    ):
        if rows:
            out.append((name, {"rows": rows}))
    mentioned = {str(r["entity_id"]) for r in batch.mentions}
    # Entities written without a mention (relation or alias ends only) are candidates for
    # the clean-up like the ones earlier versions mentioned; never one the batch mentions.
    candidates = (stored.mentioned | batch.entity_ids()) - mentioned
    out += _cleanup(stored, candidates, candidates | mentioned)
    if batch.same_as:
        out.append(("same_as_merge", {"rows": batch.same_as}))
    return out


def delete(stored: Stored) -> list[Query]:
    out = _take_back(stored)
    if stored.chunks:
        out.append(("chunks_delete", {"ids": sorted(stored.chunks)}))
    out.append(("documents_delete", {"ids": stored.present}))
    return out + _cleanup(stored, set(stored.mentioned), set(stored.mentioned))


def with_params(text: str, params: dict[str, Any]) -> str:
    """``CYPHER name=value ... <query>``: how FalkorDB takes parameters (the client's own
    encoding of each value, so strings are quoted and escaped by it)."""
    from falkordb.helpers import stringify_param_value

    if not params:
        return text
    header = " ".join(f"{key}={stringify_param_value(value)}" for key, value in params.items())
    return f"CYPHER {header} {text}"


_INDEX_STMT = re.compile(
    r"CREATE (?P<vector>VECTOR )?INDEX FOR \(\w+:(?P<label>\w+)\) ON \((?P<props>[^)]*)\)"
)


def index_missing(stmt: str, indexed: set[tuple[str, str, str]]) -> bool:
    """Whether a schema.cypher statement creates an index that ``db.indexes()`` does not list
    (FalkorDB has no IF NOT EXISTS; creating an index twice is an error)."""
    m = _INDEX_STMT.search(stmt)
    if m is None:
        return True
    kind = "VECTOR" if m["vector"] else "RANGE"
    props = [p.strip().split(".")[-1] for p in m["props"].split(",")]
    return any((m["label"], p, kind) not in indexed for p in props)
