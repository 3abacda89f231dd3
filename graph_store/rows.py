"""Backend-neutral row shaping between graph_schema models and query parameters/results."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from graph_schema import Alias, Chunk, Document, DocumentGraph, Entity, Relation
from graph_store.types import ChunkHit, DocumentInfo
from kg.errors import StoreError


def document_params(doc: Document) -> dict[str, Any]:
    return {
        "id": doc.id,
        "uri": doc.uri,
        "title": doc.title,
        "content_hash": doc.content_hash,
        "extractor_version": doc.extractor_version,
        "ingested_at": doc.ingested_at.isoformat(),
        "source": doc.source,
        "doc_type": doc.doc_type,
        "date": doc.date,
        "authority": doc.authority,
    }


def chunk_rows(chunks: Iterable[Chunk], dim: int) -> list[dict[str, Any]]:
    rows = []
    for c in chunks:
        if len(c.embedding) != dim:
            raise StoreError(f"chunk {c.id} has a {len(c.embedding)}-d embedding, need {dim}")
        rows.append(
            {
                "id": c.id,
                "doc_id": c.doc_id,
                "idx": c.index,
                "text": c.text,
                "tokens": c.tokens,
                "content_hash": c.content_hash,
                "embedding": list(c.embedding),
            }
        )
    return rows


def alias_rows(aliases: Iterable[Alias], doc_id: str) -> list[dict[str, Any]]:
    """One row per (alias, entity); the best confidence wins when a document repeats a pair."""
    best: dict[tuple[str, str], Alias] = {}
    for a in aliases:
        key = (a.normalized, a.entity_id)
        if key not in best or a.confidence > best[key].confidence:
            best[key] = a
    return [
        {
            "normalized": a.normalized,
            "name": a.name,
            "entity_id": a.entity_id,
            "method": a.method,
            "confidence": a.confidence,
            "doc_ids": [doc_id],
        }
        for a in best.values()
    ]


def relation_rows(relations: Iterable[Relation]) -> list[dict[str, Any]]:
    """Relations of one document folded by (source, target, type)."""
    folded: dict[tuple[str, str, str], dict[str, Any]] = {}
    for r in relations:
        key = (r.source_id, r.target_id, r.type)
        row = folded.setdefault(
            key,
            {
                "source_id": r.source_id,
                "target_id": r.target_id,
                "type": r.type,
                "weight": 0.0,
                "evidence": [],
                "extractor": r.extractor,
            },
        )
        row["weight"] = max(row["weight"], r.weight)
        row["evidence"] = sorted(set(row["evidence"]) | set(r.evidence))
    return list(folded.values())


def merge_provenance(
    rows: list[dict[str, Any]],
    existing: dict[Any, list[str]],
    key: Sequence[str],
    field: str,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split rows into (to create, to update), unioning provenance lists with what is stored."""
    create, update = [], []
    for row in rows:
        k = tuple(row[f] for f in key)
        if k in existing:
            update.append({**row, field: sorted(set(existing[k]) | set(row[field]))})
        else:
            create.append(row)
    return create, update


def to_chunk_hit(row: Sequence[Any], score: float) -> ChunkHit:
    return ChunkHit(
        chunk_id=row[0], doc_id=row[1], doc_title=row[2], text=row[3], score=score, index=row[4]
    )


def to_document_info(row: Sequence[Any]) -> DocumentInfo:
    return DocumentInfo(
        id=row[0],
        uri=row[1],
        title=row[2],
        content_hash=row[3],
        extractor_version=row[4],
        ingested_at=row[5],
        source=row[6],
        doc_type=row[7],
        date=row[8],
        chunks=int(row[9]),
    )


def entity_row(entity: Entity, dim: int) -> dict[str, Any]:
    emb = [float(x) for x in entity.embedding]
    if len(emb) != dim:
        raise StoreError(f"entity {entity.id} has a {len(emb)}-d embedding, need {dim}")
    return {
        "id": entity.id,
        "name": entity.name,
        "type": entity.type,
        "description": entity.description,
        "embedding": emb,
    }


def same_as_rows(graphs: Sequence[DocumentGraph]) -> list[dict[str, Any]]:
    """SAME_AS pairs of a batch, strongest score per ordered pair."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for g in graphs:
        for p in g.same_as:
            key = (p.source_id, p.target_id)
            if key not in best or p.score > best[key]["score"]:
                best[key] = {
                    "source_id": p.source_id,
                    "target_id": p.target_id,
                    "score": float(p.score),
                    "method": p.method,
                }
    return list(best.values())
