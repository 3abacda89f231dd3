"""The read-model port's contract, on the read model the composition root gives each store of
``STORE_FACTORIES`` (conftest.py): personalized PageRank as the projection computes it,
relation paths, linking inputs, chunk reads and the graph preset over the port."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from graph_store.read_model import GraphReadModel
from retrieval.config import RetrievalSettings
from retrieval.graph_search import graph_search
from retrieval.projection import Projection
from tests.integration.graph_store.contract.conftest import graph
from tests.integration.tiny_graphs import vec


@pytest.fixture()
def chain(store: Any, read_model: GraphReadModel) -> GraphReadModel:
    """a - b - c - d along PART_OF relations (written from the end: relations join entities
    already written), with an unrelated document about z."""
    store.upsert_documents(
        [
            graph("dd", ["delta far away"], ["d"], []),
            graph("dc", ["gamma here"], ["c", "d"], [("c", "d")]),
            graph("db", ["beta only"], ["b", "c", "t-db"], [("b", "c")]),
            graph("da", ["alpha trust one", "alpha two"], ["a", "b"], [("a", "b")]),
            graph("dz", ["about z"], ["z"], []),
        ]
    )
    store.refresh_indexes()
    read_model.refresh_authority()
    return read_model


def test_relation_paths_on_a_graph_without_relations(
    store: Any, read_model: GraphReadModel
) -> None:
    store.upsert_documents([graph("dy", ["about y and w"], ["y", "w"], [])])
    store.refresh_indexes()
    got = read_model.relation_paths({"y": 1.0}, 3)
    assert got.keys() == {"y"}  # the source alone, at no hop
    assert (got["y"].hops, got["y"].via, got["y"].relation) == (0, None, "")


def test_implements_the_port(read_model: GraphReadModel) -> None:
    assert isinstance(read_model, GraphReadModel)


def test_personalized_pagerank_is_the_projections(store: Any, chain: GraphReadModel) -> None:
    seeds = {"a": 0.6, "d": 0.3, "z": 0.1}
    got = chain.personalized_pagerank(seeds, 100, damping=0.85)
    want = Projection(store.projection_data()).personalized(seeds, damping=0.85)
    ranked = sorted(want, key=lambda n: -want[n])
    assert list(got)[:3] == ranked[:3]
    assert got == pytest.approx({n: want[n] for n in got}, abs=1e-3)
    assert sum(got.values()) == pytest.approx(1.0, abs=2e-3)
    assert chain.personalized_pagerank({"missing": 1.0}, 5) == {}


def test_relation_paths_along_the_chain(chain: GraphReadModel) -> None:
    got = chain.relation_paths({"a": 1.0}, 3, hop_decay=0.8, backward=0.5)
    assert {e: (h.hops, h.via, h.relation, h.forward) for e, h in got.items()} == {
        "a": (0, None, "", True),
        "b": (1, "a", "PART_OF", True),
        "c": (2, "b", "PART_OF", True),
        "d": (3, "c", "PART_OF", True),
    }
    # Relation weight 1: strength decays by 0.8 per hop after the first.
    assert [got[e].strength for e in "abcd"] == pytest.approx([1.0, 1.0, 0.8, 0.64])
    assert chain.relation_paths({"a": 1.0}, 1).keys() == {"a", "b"}
    backwards = chain.relation_paths({"d": 1.0}, 1, backward=0.5)
    assert (backwards["c"].forward, backwards["c"].strength) == (False, pytest.approx(0.5))
    assert chain.relation_paths({"z": 1.0}, 3).keys() == {"z"}  # no relation: the source only


def test_a_bare_name_links_to_its_qualified_title(store: Any, read_model: GraphReadModel) -> None:
    # Titles tell namesakes apart ("Brother (Pearl Jam Song)"); questions say "Brother".
    store.upsert_documents(
        [graph("dq", ["Brother is a song by Pearl Jam."], ["brother (pearl jam song)"], [])]
    )
    found = {
        (m.span, m.start, m.end, m.entity_id, round(m.confidence, 6))
        for m in read_model.alias_matches("Who sang Brother in 1991?")
    }
    assert found == {("Brother", 2, 3, "brother (pearl jam song)", 0.8)}


def test_linking_inputs_and_chunk_reads(chain: GraphReadModel) -> None:
    matches = chain.alias_matches("What does A do with the T-DB report?")
    assert {(m.span, m.entity_id) for m in matches} >= {("A", "a")}
    # Entity vectors are vec(len(id)): "t-db" alone is vec(4).
    nearest = chain.nearest_entities(list(vec(4)), 2)
    assert nearest[0].entity_id == "t-db" and nearest[0].score == pytest.approx(1.0, abs=1e-3)
    # With a floor, only the names at that cosine or more: fewer than asked for.
    assert [m.entity_id for m in chain.nearest_entities(list(vec(4)), 5, 0.999)] == ["t-db"]
    chunks = chain.entity_chunks(["b"])["b"]
    assert len(chunks) == 2 and {c[:4] for c in chunks} == {"t-da", "t-db"}
    first_a = next(c for c in chunks if c.startswith("t-da-"))
    assert chain.chunk_entities([first_a]) == {first_a: {"a": 1, "b": 1}}
    detail = chain.chunk_details([first_a], list(vec(3)))[first_a]
    assert (detail.doc_id, detail.text, detail.index) == ("t-da", "alpha trust one", 0)
    # The tiny graph's chunk vectors are vec(index + sum of the document id's code points).
    want = float(np.dot(vec(sum(map(ord, "t-da"))), vec(3)))
    assert detail.similarity == pytest.approx(want, abs=1e-3)
    assert 0.0 <= detail.authority <= 1.0
    # One cosine an entity, as the agent ranks what a question reaches by it.
    sims = chain.entity_similarities(["a", "t-db", "missing"], list(vec(4)))
    a, q = np.asarray(vec(1)), np.asarray(vec(4))
    cos = float(a @ q / (np.linalg.norm(a) * np.linalg.norm(q)))
    assert sims == pytest.approx({"a": cos, "t-db": 1.0}, abs=1e-4)
    assert chain.subject_chunks(["t-db"]) == {"t-db": [c for c in chunks if c[:4] == "t-db"]}
    # The stored chunk vectors, as they were written: vec(index + the document id's code points).
    stored = chain.chunk_vectors([detail.chunk_id, "missing"])
    assert list(stored) == [detail.chunk_id]
    got, want_vec = np.asarray(stored[detail.chunk_id]), np.asarray(vec(sum(map(ord, "t-da"))))
    cosine = float(got @ want_vec / (np.linalg.norm(got) * np.linalg.norm(want_vec)))
    assert cosine == pytest.approx(1.0, abs=1e-6)


def test_chunks_are_compared_with_names_in_the_order_asked(chain: GraphReadModel) -> None:
    """The bridges' read: each chunk's cosine with each name's vector, in the order of the
    names asked, 0 for a name the graph does not hold."""
    chunk = next(c for c in chain.entity_chunks(["b"])["b"] if c.startswith("t-da-"))
    got = chain.chunk_entity_similarities([chunk, "missing"], ["t-db", "missing", "a"])
    assert list(got) == [chunk]
    stored = np.asarray(chain.chunk_vectors([chunk])[chunk])
    stored = stored / np.linalg.norm(stored)
    t_db, a = (float(stored @ (np.asarray(v) / np.linalg.norm(v))) for v in (vec(4), vec(1)))
    assert got[chunk] == pytest.approx([t_db, 0.0, a], abs=1e-4)
    assert chain.chunk_entity_similarities([chunk], []) == {}


def test_candidates_come_with_the_details_a_second_read_gives(chain: GraphReadModel) -> None:
    """One read where the store can (Neo4j: the vector and full-text queries return the
    details too) answers as the two reads it saves."""
    q = list(vec(sum(map(ord, "t-da"))))
    dense = chain.dense_candidates(q, 3)
    assert dense.hits == chain.dense_chunks(q, 3) and dense.hits[0].doc_id == "t-da"
    lexical = chain.lexical_candidates("alpha", q, 5)
    assert lexical.hits == chain.lexical_chunks("alpha", 5)
    assert {h.doc_id for h in lexical.hits} == {"t-da"}
    for got in (dense, lexical):
        want = chain.chunk_details([h.chunk_id for h in got.hits], q)
        assert got.details.keys() == want.keys()
        for c, detail in want.items():
            mine = got.details[c]
            assert mine.similarity == pytest.approx(detail.similarity, abs=1e-6)
            assert replace(mine, similarity=0.0) == replace(detail, similarity=0.0)
    assert chain.lexical_candidates("", q, 5).hits == []
    assert chain.dense_candidates(q, 0).hits == []


def test_graph_preset_finds_the_passage(chain: GraphReadModel) -> None:
    target = next(iter(chain.subject_chunks(["t-db"])["t-db"]))  # the passage "beta only"
    vector = np.asarray(vec(sum(map(ord, "t-db"))))
    got = graph_search("beta only", vector, 3, chain, RetrievalSettings())
    assert got.results[0].chunk_id == target
    assert got.results[0].components["dense"] == pytest.approx(1.0, abs=1e-3)
