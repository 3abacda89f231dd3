"""Tiny document graphs for the Neo4j adapter's tests, and raw Cypher for their set-up."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import numpy as np

from graph_schema import Alias, Chunk, Document, DocumentGraph, Entity, Mention, Relation
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

__all__ = ["DATABASE", "PASSWORD", "URI", "USER"]

DIM = 8
PREFIX = "t-"  # every test document id starts with this; see the safety check below


def vec(i: int) -> tuple[float, ...]:
    v = np.zeros(DIM)
    v[i % DIM] = 1.0
    v[(i + 1) % DIM] = 0.3
    return tuple(float(x) for x in v / np.linalg.norm(v))


def graph(
    doc: str, texts: list[str], ents: list[str], rels: list[tuple[str, str]]
) -> DocumentGraph:
    doc = PREFIX + doc
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


def driver_run(text: str, **params: Any) -> list[Any]:
    """Raw Cypher for test set-up only (wiping the test database), never in the adapter."""
    import neo4j

    with neo4j.GraphDatabase.driver(URI, auth=(USER, PASSWORD)) as driver:
        records, _, _ = driver.execute_query(text, params, database_=DATABASE)
        return list(records)


def has_gds() -> bool:
    try:
        driver_run("RETURN gds.version() AS v")
    except Exception:  # any refusal means no GDS
        return False
    return True
