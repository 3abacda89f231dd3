"""The Neo4j adapter's ranking without a server: the document-authority rule applied to GDS
scores is the in-memory projection's, and the adapter offers every capability it promises."""

from __future__ import annotations

import pytest

from graph_store.explore_port import GraphExplorer, NativeText2Cypher
from graph_store.neo4j.store import Neo4jGraphStore
from graph_store.port import GraphStore
from graph_store.types import ProjectionData
from retrieval.projection import Projection, document_authority


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


def test_document_authority_is_the_projection_rule() -> None:
    d = data()
    projection = Projection(d)
    scores = projection.pagerank().scores
    chunk_scores = {c: float(scores[i]) for i, c in enumerate(projection.chunk_ids)}
    entity_scores = {
        e: float(scores[projection.n_chunks + i]) for i, e in enumerate(projection.entity_ids)
    }
    expected_entities, expected_docs = projection.authority(d)
    got = document_authority(
        list(zip(d.doc_ids, d.doc_titles, strict=True)),
        dict(zip(d.chunk_ids, d.chunk_docs, strict=True)),
        chunk_scores,
        dict(zip(d.entity_ids, d.entity_names, strict=True)),
        entity_scores,
    )
    assert entity_scores == pytest.approx(expected_entities)
    assert got == pytest.approx(expected_docs)
    assert got["d1"] == pytest.approx(entity_scores["a"])  # its title names Alpha Trust
    assert got["d3"] == pytest.approx(chunk_scores["d3-0"])  # no subject: its chunks' mean


def test_the_adapter_offers_every_capability_without_io() -> None:
    store = Neo4jGraphStore("bolt://127.0.0.1:1", "neo4j", "x", "neo4j", 8, "m")
    assert isinstance(store, GraphStore)
    assert isinstance(store, GraphExplorer)
    assert isinstance(store, NativeText2Cypher)
