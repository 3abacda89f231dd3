"""The authority rule and the Neo4j adapter's promises that need no server: authority is
checked against PageRank solved independently (dense linear algebra), not against itself."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import StoreError
from graph_store.neo4j import gds
from graph_store.neo4j.store import Neo4jGraphStore
from graph_store.types import ProjectionData
from retrieval import projection
from retrieval.projection import Projection


def data() -> ProjectionData:
    """Three documents: two whose titles name an entity, one that names none."""
    chunks = ["d1-0", "d1-1", "d2-0", "d3-0"]
    docs = ["d1", "d1", "d2", "d3"]
    return ProjectionData(
        version="1",
        doc_ids=["d1", "d2", "d3"],
        doc_titles=["Alpha  Trust", "beta", "Minutes"],
        doc_meta=[("", "", "")] * 3,
        doc_authority=[0.0] * 3,
        chunk_ids=chunks,
        chunk_docs=docs,
        chunk_index=[0, 1, 0, 0],
        chunk_tokens=[5] * 4,
        chunk_embeddings=[[0.0]] * 4,
        entity_ids=["a", "b", "c"],
        entity_names=["Alpha Trust", "Beta", "Gamma"],
        entity_types=[""] * 3,
        entity_pagerank=[0.0] * 3,
        mentions=[("d1-0", "a", 2), ("d1-1", "b", 1), ("d2-0", "b", 1), ("d3-0", "c", 1)],
        relations=[("a", "b", "PART_OF", 1.0), ("c", "b", "CO_OCCURS", 0.2)],
        aliases=[],
    )


def exact_pagerank(d: ProjectionData, damping: float = 0.85) -> dict[str, float]:
    """PageRank of the walk graph by solving (I - d W^T) r = (1 - d) / n directly. Nodes:
    chunks then entities; edges undirected; a mention of a document's own subject weighs
    SUBJECT_WEIGHT times its count; NEXT joins d1-0 and d1-1."""
    ids = d.chunk_ids + d.entity_ids
    pos = {x: i for i, x in enumerate(ids)}
    n = len(ids)
    a = np.zeros((n, n))
    subject = {("d1", "a"), ("d2", "b")}  # titles "Alpha  Trust" and "beta"
    doc_of = dict(zip(d.chunk_ids, d.chunk_docs, strict=True))
    for c, e, count in d.mentions:
        w = count * (projection.SUBJECT_WEIGHT if (doc_of[c], e) in subject else 1.0)
        a[pos[c], pos[e]] += w
        a[pos[e], pos[c]] += w
    for s, t, _type, w in d.relations:
        a[pos[s], pos[t]] += w
        a[pos[t], pos[s]] += w
    a[pos["d1-0"], pos["d1-1"]] += projection.NEXT_WEIGHT
    a[pos["d1-1"], pos["d1-0"]] += projection.NEXT_WEIGHT
    walk = a / a.sum(axis=1, keepdims=True)
    r = np.linalg.solve(np.eye(n) - damping * walk.T, np.full(n, (1 - damping) / n))
    return {x: float(r[pos[x]]) for x in ids}


def test_authority_is_subject_pagerank_or_chunk_mean() -> None:
    d = data()
    entities, docs = Projection(d).authority(d)
    exact = exact_pagerank(d)
    assert entities == pytest.approx({e: exact[e] for e in d.entity_ids}, abs=1e-5)
    assert docs["d1"] == pytest.approx(exact["a"], abs=1e-5)  # "Alpha  Trust" names a
    assert docs["d2"] == pytest.approx(exact["b"], abs=1e-5)  # "beta" names Beta
    assert docs["d3"] == pytest.approx(exact["d3-0"], abs=1e-5)  # no subject: its chunks
    assert docs["d1"] != pytest.approx(docs["d3"], abs=1e-3)


def test_gds_walk_graph_weights_match_the_projection() -> None:
    assert gds.NEXT_WEIGHT == projection.NEXT_WEIGHT
    assert gds.SUBJECT_WEIGHT == projection.SUBJECT_WEIGHT


def test_the_adapter_does_no_io_until_opened() -> None:
    store = Neo4jGraphStore("bolt://127.0.0.1:1", "neo4j", "x", "neo4j", 8, "m")
    with pytest.raises(StoreError, match="not open"):
        store.graph_version()
    with pytest.raises(StoreError, match="not open"):
        store.vector_search_chunks([0.0] * 8, 3)
    with pytest.raises(StoreError, match="positive"):
        Neo4jGraphStore("bolt://127.0.0.1:1", "neo4j", "x", "neo4j", 0, "m")
