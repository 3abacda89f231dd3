"""Arrow tables for the embedded store's bulk writes (``COPY <table> FROM $rows``).

Kùzu 0.11.3 copies an Arrow table inside a transaction, into a table that already has rows,
and the rows are visible to the transaction's later statements; a key that already exists
fails the whole statement, so only rows the writer has read to be new are copied. Columns are
in the table's DDL order (cypher/kuzu/schema.cypher); vectors go as fixed-size lists, since a
column of Python lists or numpy arrays costs a conversion per element (UNWIND of 384-float
lists was the slowest statement of a batch) or crashes the binder.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from core.errors import StoreError
from graph_schema import Chunk, Document, Entity

# A relationship's ids (evidence chunk ids, alias document ids) are stored as one string,
# joined by this (cypher/kuzu/schema.cypher says why); the read queries split them again.
ID_SEPARATOR = " "


def id_string(ids: Iterable[str]) -> str:
    """``ids`` as the one string a relationship stores; an id with the separator is refused
    (the ids the pipeline makes never hold one)."""
    ids = list(ids)
    for i in ids:
        if ID_SEPARATOR in i or not i:
            raise StoreError(f"cannot store the id {i!r} in a relationship's id list")
    return ID_SEPARATOR.join(ids)


def with_id_string(rows: Sequence[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """``rows`` with the id list under ``key`` stored as one string (for a CREATE)."""
    return [{**r, key: id_string(r[key])} for r in rows]


def _vectors(ids: Sequence[str], rows: Sequence[Sequence[float]], dim: int, what: str) -> Any:
    for item, vec in zip(ids, rows, strict=True):
        if len(vec) != dim:
            raise StoreError(f"{what} {item} has a {len(vec)}-d embedding, need {dim}")
    flat = np.asarray(rows, dtype=np.float32).reshape(-1)
    return pa.FixedSizeListArray.from_arrays(pa.array(flat, type=pa.float32()), dim)


def document_table(docs: Sequence[Document]) -> Any:
    return pa.table(
        {
            "id": pa.array([d.id for d in docs], pa.string()),
            "uri": pa.array([d.uri for d in docs], pa.string()),
            "title": pa.array([d.title for d in docs], pa.string()),
            "content_hash": pa.array([d.content_hash for d in docs], pa.string()),
            "extractor_version": pa.array([d.extractor_version for d in docs], pa.string()),
            "ingested_at": pa.array([d.ingested_at.isoformat() for d in docs], pa.string()),
            "source": pa.array([d.source for d in docs], pa.string()),
            "doc_type": pa.array([d.doc_type for d in docs], pa.string()),
            "date": pa.array([d.date for d in docs], pa.string()),
            "authority": pa.array([d.authority for d in docs], pa.float64()),
        }
    )


def chunk_table(chunks: Sequence[Chunk], dim: int) -> Any:
    ids = [c.id for c in chunks]
    return pa.table(
        {
            "id": pa.array(ids, pa.string()),
            "doc_id": pa.array([c.doc_id for c in chunks], pa.string()),
            "idx": pa.array([c.index for c in chunks], pa.int64()),
            "text": pa.array([c.text for c in chunks], pa.string()),
            "tokens": pa.array([c.tokens for c in chunks], pa.int64()),
            "content_hash": pa.array([c.content_hash for c in chunks], pa.string()),
            "embedding": _vectors(ids, [c.embedding for c in chunks], dim, "chunk"),
        }
    )


def has_chunk_table(chunks: Sequence[Chunk]) -> Any:
    return pa.table(
        {
            "from": pa.array([c.doc_id for c in chunks], pa.string()),
            "to": pa.array([c.id for c in chunks], pa.string()),
        }
    )


def entity_table(entities: Sequence[Entity], dim: int) -> Any:
    ids = [e.id for e in entities]
    return pa.table(
        {
            "id": pa.array(ids, pa.string()),
            "name": pa.array([e.name for e in entities], pa.string()),
            "type": pa.array([e.type for e in entities], pa.string()),
            "description": pa.array([e.description for e in entities], pa.string()),
            "embedding": _vectors(ids, [e.embedding for e in entities], dim, "entity"),
            "mentions": pa.array([0] * len(entities), pa.int64()),
            "pagerank": pa.array([0.0] * len(entities), pa.float64()),
        }
    )


def mention_table(rows: Sequence[dict[str, Any]]) -> Any:
    return pa.table(
        {
            "from": pa.array([r["chunk_id"] for r in rows], pa.string()),
            "to": pa.array([r["entity_id"] for r in rows], pa.string()),
            "count": pa.array([int(r["count"]) for r in rows], pa.int64()),
        }
    )


def same_as_table(rows: Sequence[dict[str, Any]]) -> Any:
    """``same_as_rows`` rows whose pair the store does not have yet."""
    return pa.table(
        {
            "from": pa.array([r["source_id"] for r in rows], pa.string()),
            "to": pa.array([r["target_id"] for r in rows], pa.string()),
            "score": pa.array([float(r["score"]) for r in rows], pa.float64()),
            "method": pa.array([r["method"] for r in rows], pa.string()),
        }
    )


def related_table(rows: Sequence[dict[str, Any]]) -> Any:
    """``fold_relations`` create rows."""
    return pa.table(
        {
            "from": pa.array([r["source_id"] for r in rows], pa.string()),
            "to": pa.array([r["target_id"] for r in rows], pa.string()),
            "type": pa.array([r["type"] for r in rows], pa.string()),
            "weight": pa.array([float(r["weight"]) for r in rows], pa.float64()),
            "evidence": pa.array([id_string(r["evidence"]) for r in rows], pa.string()),
            "extractor": pa.array([r["extractor"] for r in rows], pa.string()),
        }
    )


def alias_table(rows: Sequence[dict[str, Any]]) -> Any:
    """Alias nodes: one row per new key (``alias_rows`` rows)."""
    return pa.table(
        {
            "normalized": pa.array([r["normalized"] for r in rows], pa.string()),
            "name": pa.array([r["name"] for r in rows], pa.string()),
        }
    )


def alias_of_table(rows: Sequence[dict[str, Any]]) -> Any:
    """``fold_alias_links`` create rows."""
    return pa.table(
        {
            "from": pa.array([r["normalized"] for r in rows], pa.string()),
            "to": pa.array([r["entity_id"] for r in rows], pa.string()),
            "method": pa.array([r["method"] for r in rows], pa.string()),
            "confidence": pa.array([float(r["confidence"]) for r in rows], pa.float64()),
            "doc_ids": pa.array([id_string(r["doc_ids"]) for r in rows], pa.string()),
        }
    )
