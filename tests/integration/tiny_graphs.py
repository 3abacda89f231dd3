"""Tiny document graphs for the graph adapters' tests (embedded and Neo4j alike): one document,
its chunks with unit vectors of width ``DIM``, entities mentioned by its first chunk, and
PART_OF relations evidenced by it."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from graph_schema import Alias, Chunk, Document, DocumentGraph, Entity, Mention, Relation

DIM = 8


def vec(i: int) -> tuple[float, ...]:
    v = np.zeros(DIM)
    v[i % DIM] = 1.0
    v[(i + 1) % DIM] = 0.3
    return tuple(float(x) for x in v / np.linalg.norm(v))


def graph(
    doc: str, texts: list[str], ents: list[str], rels: list[tuple[str, str]], prefix: str = ""
) -> DocumentGraph:
    doc = prefix + doc
    d = Document(
        id=doc,
        uri=f"/x/{doc}",
        title=doc.upper(),
        content_hash="|".join(texts),
        extractor_version="t1",
        ingested_at=datetime.now(UTC),
    )
    chunks = [
        Chunk(
            id=f"{doc}-{i:04d}-{abs(hash(t)) % 10**8}",
            doc_id=doc,
            index=i,
            text=t,
            tokens=len(t.split()),
            content_hash=t,
            embedding=vec(i + sum(map(ord, doc))),
        )
        for i, t in enumerate(texts)
    ]
    entities = [Entity(id=e, name=e.title(), embedding=vec(len(e))) for e in ents]
    mentions = [Mention(chunk_id=chunks[0].id, entity_id=e) for e in ents]
    aliases = [Alias(name=e.upper(), normalized=e, entity_id=e, method="name") for e in ents]
    relations = [
        Relation(source_id=a, target_id=b, type="PART_OF", evidence=(chunks[0].id,))
        for a, b in rels
    ]
    return DocumentGraph(
        document=d,
        chunks=tuple(chunks),
        entities=tuple(entities),
        aliases=tuple(aliases),
        relations=tuple(relations),
        mentions=tuple(mentions),
    )
