"""The Neo4j read model on a real Neo4j + GDS + APOC, checked against the in-memory read model
over the same graph (the projection Neo4j's graph is read into): authority written by GDS,
linking inputs within the vector index's precision, the graph preset. The walk, relation paths
and alias linking are the port's contract (../contract/test_read_model_contract.py)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from graph_store.neo4j.read_model import Neo4jReadModel
from graph_store.neo4j.store import Neo4jGraphStore
from graph_store.read_model import GraphReadModel
from retrieval.config import RetrievalSettings
from retrieval.graph_search import graph_search
from retrieval.read_model import InMemoryReadModel
from tests.integration.graph_store.neo4j.graphs import graph, vec

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]


@pytest.fixture()
def models(store: Neo4jGraphStore) -> Iterator[tuple[Neo4jReadModel, InMemoryReadModel]]:
    # Relations join entities already written: the chain a - b - c - d is written from its end.
    store.upsert_documents(
        [
            graph("dd", ["delta far away"], ["d"], []),
            graph("dc", ["gamma here"], ["c", "d"], [("c", "d")]),
            graph("db", ["beta only"], ["b", "c", "t-db"], [("b", "c")]),
            graph("da", ["alpha trust one", "alpha two"], ["a", "b"], [("a", "b")]),
        ]
    )
    native = Neo4jReadModel(store)
    assert native.refresh_authority()
    yield native, InMemoryReadModel(store)


def test_authority_is_gds_pagerank_written_as_the_projection_computes_it(
    store: Neo4jGraphStore,
    models: tuple[Neo4jReadModel, InMemoryReadModel],
) -> None:
    native, _ = models
    version = store.graph_version()
    assert not native.refresh_authority()  # nothing changed: nothing recomputed
    assert store.graph_version() == version  # the catalog graph of this version is kept
    data = store.projection_data()
    from retrieval.projection import Projection

    expected_entities, expected_docs = Projection(data).authority(data)
    stored = dict(zip(data.entity_ids, data.entity_pagerank, strict=True))
    assert stored == pytest.approx(expected_entities, abs=2e-3)
    docs = dict(zip(data.doc_ids, data.doc_authority, strict=True))
    assert docs == pytest.approx(expected_docs, abs=2e-3)
    # "T-DB" (the title) names the entity "T-Db": the document's authority is its subject's.
    assert docs["t-db"] == pytest.approx(stored["t-db"], abs=1e-9)
    assert native.subject_chunks(["t-db"]) == {
        "t-db": [c for c in data.chunk_ids if c.startswith("t-db-")]
    }
    percentiles = native.authority_percentiles(["a", "b", "d"])
    assert percentiles["b"] == 1.0  # the hub of the graph
    assert percentiles == pytest.approx(models[1].authority_percentiles(["a", "b", "d"]))


def test_linking_inputs_and_chunk_reads(models: tuple[Neo4jReadModel, InMemoryReadModel]) -> None:
    native, memory = models
    matches = native.alias_matches("What does A do with the T-DB report?")
    assert {(m.span, m.entity_id) for m in matches} >= {("A", "a")}
    # Entity vectors are vec(len(id)): "t-db" alone is vec(4).
    nearest = native.nearest_entities(list(vec(4)), 2)
    assert nearest[0].entity_id == "t-db" == memory.nearest_entities(list(vec(4)), 1)[0].entity_id
    assert nearest[0].score == pytest.approx(1.0, abs=1e-4)
    # Neo4j's index reports (1 + cos) / 2 in float32: cosine comes back within about 1e-3.
    second = memory.nearest_entities(list(vec(4)), 2)[1].score
    assert nearest[1].score == pytest.approx(second, abs=1e-3)
    chunk = next(iter(memory.index().chunk_ids))
    got = native.chunk_details([chunk], list(vec(3)))[chunk]
    want = memory.chunk_details([chunk], list(vec(3)))[chunk]
    assert (got.doc_id, got.text, got.index) == (want.doc_id, want.text, want.index)
    assert got.similarity == pytest.approx(want.similarity, abs=1e-5)
    assert got.authority == pytest.approx(want.authority, abs=2e-2)
    assert native.chunk_entities([chunk]) == memory.chunk_entities([chunk])
    assert sorted(native.entity_chunks(["b"])["b"]) == sorted(memory.entity_chunks(["b"])["b"])
    assert len(native.entity_chunks(["b"])["b"]) == 2
    # The name's vector is vec(1): the chunk's cosine with it, read in the database.
    stored = np.asarray(native.chunk_vectors([chunk])[chunk])
    name = np.asarray(vec(1))
    cosine = float(stored @ name / (np.linalg.norm(stored) * np.linalg.norm(name)))
    got_cosines = native.chunk_entity_similarities([chunk], ["a"])[chunk]
    assert got_cosines == pytest.approx([cosine], abs=1e-4)


def test_graph_preset_on_neo4j_finds_the_passage(
    models: tuple[Neo4jReadModel, InMemoryReadModel],
) -> None:
    native, memory = models
    assert isinstance(native, GraphReadModel)
    target = next(c for c in memory.index().chunk_ids if c.startswith("t-dd-"))
    vector = np.asarray(memory.index().chunk_matrix[memory.index().chunk_ids.index(target)])
    settings = RetrievalSettings()
    got = graph_search("delta far away", vector, 3, native, settings)
    assert got.results[0].chunk_id == target
    assert got.results[0].components["dense"] == pytest.approx(1.0, abs=1e-4)
    # The same preset over the in-memory model of the same graph agrees on the best passage
    # (the walk's scores differ within GDS's tolerance, so ties further down may not).
    same = graph_search("delta far away", vector, 3, memory, settings)
    assert same.results[0].chunk_id == target
