"""Backend-neutral row shaping between graph_schema models and query parameters/results."""

from __future__ import annotations

import itertools
import sys
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from core.errors import StoreError
from graph_schema import Alias, Chunk, Document, DocumentGraph, Entity, NumericFact, Relation
from graph_store.types import ChunkHit, DocumentInfo, FactHit, GraphExport, ProjectionData


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


def numeric_fact_rows(graphs: Iterable[DocumentGraph]) -> list[dict[str, Any]]:
    """Rows of ``numeric_facts_create``/``_merge``. The stored id carries a nonce of this
    write, so a re-ingest, which deletes a document's facts first, never re-inserts an id it
    deleted in the same transaction (the embedded store refuses that); reads strip it."""
    nonce = uuid.uuid4().hex[:12]
    return [
        {
            "id": f"{f.id}@{nonce}",
            "doc_id": f.doc_id,
            "chunk_id": f.chunk_id,
            "value": float(f.value),
            "unit": f.unit,
            "measure": f.measure,
            "kind": f.kind,
            "entity_id": f.entity_id,
            "entity_name": f.entity_name,
            "text": f.text,
        }
        for g in graphs
        for f in g.numeric_facts
    ]


def to_fact_hit(row: Sequence[Any]) -> FactHit:
    """A ``numeric_facts_list`` row."""
    fact = NumericFact(
        id=str(row[0]).split("@", 1)[0],
        doc_id=row[1],
        chunk_id=row[2],
        value=float(row[3]),
        unit=row[4] or "",
        measure=row[5] or "",
        kind=row[6] or "amount",
        entity_id=row[7] or "",
        entity_name=row[8] or "",
        text=row[9] or "",
    )
    return FactHit(fact=fact, doc_title=row[10] or "")


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


Reader = Callable[[str], list[list[Any]]]


def read_graph_export(read: Reader) -> GraphExport:
    """Shape the ``export_*`` queries' rows (same columns on both backends)."""
    chunks = read("export_chunks")
    entities = read("export_entities")
    return GraphExport(
        chunk_ids=[r[0] for r in chunks],
        chunk_docs=[r[1] for r in chunks],
        entity_ids=[r[0] for r in entities],
        entity_names=[r[1] for r in entities],
        mentions=[(r[0], r[1], int(r[2])) for r in read("export_mentions")],
        relations=[(r[0], r[1], r[2], float(r[3])) for r in read("export_relations")],
        next_edges=[(r[0], r[1]) for r in read("export_next")],
    )


def read_projection(version: str, read: Reader, columns: Columns | None = None) -> ProjectionData:
    """Shape the ``proj_*`` and ``export_*`` queries' rows into a ``ProjectionData``. The
    caller reads ``version`` first: a write landing during the reads makes the snapshot look
    older than it is, so caches rebuild it next time rather than keep it stale.

    With ``columns`` (a store that answers a query as an Arrow table), chunk and entity
    vectors arrive as float32 matrices: read as rows, every component is a Python float that
    lives until the projection is built, and the heap they leave behind stayed resident (a
    2Wiki-sized graph: about 100 KB a passage, ten times its vectors' own size)."""
    docs = read("proj_documents")
    chunks, chunk_vectors = _with_vectors("proj_chunks", 6, 4, read, columns)
    entities, entity_vectors = _with_vectors("proj_entities", 5, 4, read, columns)
    # Every row arrives with its own copy of each string: a document's id once per chunk, an
    # entity's type once per entity, its id once per alias. The projection is held for as
    # long as its graph version is served, so equal strings share one object, interned
    # (about 4 MB of the 2Wiki graph's).
    return ProjectionData(
        version=version,
        doc_ids=[sys.intern(r[0]) for r in docs],
        doc_titles=[r[1] or "" for r in docs],
        doc_meta=[(r[2] or "", r[3] or "", r[4] or "") for r in docs],
        doc_authority=[float(r[5] or 0.0) for r in docs],
        chunk_ids=chunks[0],
        chunk_docs=[sys.intern(v) for v in chunks[1]],
        chunk_index=[int(v or 0) for v in chunks[2]],
        chunk_tokens=[int(v or 0) for v in chunks[3]],
        chunk_embeddings=chunk_vectors,
        entity_ids=[sys.intern(v) for v in entities[0]],
        entity_names=[v or "" for v in entities[1]],
        entity_types=[sys.intern(v or "") for v in entities[2]],
        entity_pagerank=[float(v or 0.0) for v in entities[3]],
        mentions=[(r[0], r[1], int(r[2] or 1)) for r in read("export_mentions")],
        relations=[(r[0], r[1], r[2], float(r[3])) for r in read("export_relations")],
        aliases=[(r[0], sys.intern(r[1]), float(r[2] or 0.0)) for r in read("proj_aliases")],
        entity_embeddings=entity_vectors,
        chunk_texts=[v or "" for v in chunks[5]],
    )


# A named query's result as a pyarrow Table (Kùzu's ``get_as_arrow``).
Columns = Callable[[str], Any]


def _with_vectors(
    name: str, width: int, vector: int, read: Reader, columns: Columns | None
) -> tuple[list[list[Any]], np.ndarray | list[list[float]]]:
    """The ``width`` columns of query ``name`` as lists, column ``vector`` aside: a float32
    matrix when read from Arrow with a vector on every row, else one list per row."""
    vectors: np.ndarray | list[list[float]]
    if columns is None:
        rows = read(name)
        cols = [[r[i] for r in rows] for i in range(width)]
        vectors = [list(v or ()) for v in cols[vector]]
    else:
        table = columns(name)
        cols = [
            table.column(i).to_pylist() if i != vector else [] for i in range(table.num_columns)
        ]
        packed = table.column(vector).combine_chunks()
        size = getattr(packed.type, "list_size", None)
        if packed.null_count or size is None:
            vectors = [list(v or ()) for v in packed.to_pylist()]
        else:
            values = packed.flatten().to_numpy(zero_copy_only=False)
            vectors = np.asarray(values, dtype=np.float32).reshape(len(packed), size)
    return _by_id(cols, vectors)


def _by_id(
    cols: list[list[Any]], vectors: np.ndarray | list[list[float]]
) -> tuple[list[list[Any]], np.ndarray | list[list[float]]]:
    """Rows in id order (the first column). Kùzu's queries leave the sort to this: its ORDER BY
    runs in the buffer pool, which kept the pages (about 66 MB on the 2Wiki corpus's chunks
    and entities); the other stores' queries sort, and their rows pass through unchanged."""
    ids = cols[0]
    if all(a <= b for a, b in itertools.pairwise(ids)):
        return cols, vectors
    order = sorted(range(len(ids)), key=ids.__getitem__)
    cols = [[c[i] for i in order] if c else c for c in cols]
    if isinstance(vectors, np.ndarray):
        return cols, vectors[order]
    return cols, [vectors[i] for i in order]
