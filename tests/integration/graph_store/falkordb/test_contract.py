"""The behaviours every ``GraphStore`` adapter shares (those of tests/integration/
test_kuzu_store.py), through a ``store`` fixture: here a FalkorDB store (conftest.py), so that
the contract suite can take this adapter with one factory entry."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import ReadOnlyViolation
from graph_store import GraphStore
from graph_store.read_model import GraphReadModel
from retrieval.read_model import InMemoryReadModel
from tests.integration.tiny_graphs import graph, vec


def test_the_adapter_is_a_graph_store(store: GraphStore) -> None:
    assert isinstance(store, GraphStore)


def test_upsert_is_idempotent_and_replaces(store: GraphStore) -> None:
    a = graph("da", ["alpha trust one", "alpha two"], ["a", "b"], [("a", "b")])
    b = graph("db", ["beta trust"], ["b", "c"], [("b", "c")])
    store.upsert_documents([a, b])
    first = store.counts()
    assert (first.documents, first.chunks, first.entities, first.relations, first.aliases) == (
        2,
        3,
        3,
        2,
        3,
    )
    version = store.graph_version()
    store.upsert_documents([a, b])
    assert store.counts() == first
    assert store.graph_version() != version  # every committed write moves the version on
    # a new version of da drops entity a (only da mentioned it) and its relation
    store.upsert_documents([graph("da", ["alpha trust one", "changed"], ["b"], [])])
    after = store.counts()
    assert (after.documents, after.chunks, after.entities, after.relations) == (2, 3, 2, 1)
    assert store.existing_entity_ids(["a", "b", "c"]) == {"b", "c"}


def test_delete_leaves_no_chunk_mention_or_orphan(store: GraphStore) -> None:
    store.upsert_documents(
        [graph("da", ["x one", "x two"], ["a", "b"], [("a", "b")]), graph("db", ["y"], ["b"], [])]
    )
    assert store.delete_document("da")
    assert not store.delete_document("da")
    c = store.counts()
    assert (c.documents, c.chunks, c.mentions, c.entities, c.relations, c.aliases) == (
        1,
        1,
        1,
        1,
        0,
        1,
    )
    exported = store.export_graph()
    assert all(not cid.startswith("da-") for cid in exported.chunk_ids)
    assert exported.entity_ids == ["b"]
    assert store.delete_documents(["db", "nope"]) == 1
    assert store.counts().documents == 0


def test_shared_relation_keeps_evidence_of_remaining_document(store: GraphStore) -> None:
    store.upsert_documents(
        [graph("da", ["x"], ["a", "b"], [("a", "b")]), graph("db", ["y"], ["a", "b"], [("a", "b")])]
    )
    sub = store.neighbourhood("a", 1)
    assert len(sub.edges) == 1 and len(sub.edges[0].evidence) == 2
    store.delete_document("da")
    sub = store.neighbourhood("a", 1)
    assert len(sub.edges) == 1 and all(e.startswith("db-") for e in sub.edges[0].evidence)


def test_vector_search_matches_brute_force(store: GraphStore) -> None:
    docs = [graph(f"d{i}", [f"text {i} {j}" for j in range(3)], [f"e{i}"], []) for i in range(6)]
    store.upsert_documents(docs)
    q = vec(3)
    hits = store.vector_search_chunks(q, 5)
    chunks = [c for d in docs for c in d.chunks]
    sims = sorted((float(np.dot(q, c.embedding)) for c in chunks), reverse=True)
    assert [round(h.score, 4) for h in hits] == [round(s, 4) for s in sims[:5]]
    assert store.vector_search_entities(vec(2), 1)[0].score == pytest.approx(1.0, abs=1e-4)


def test_fulltext_chunks_and_aliases(store: GraphStore) -> None:
    store.upsert_documents(
        [
            graph("da", ["the crisis cafes open"], ["northdale"], []),
            graph("db", ["waiting lists"], ["ravensford"], []),
        ]
    )
    store.upsert_documents([graph("da", ["the crisis cafes open late"], ["northdale"], [])])
    store.refresh_indexes()
    assert [h.doc_id for h in store.fulltext_chunks("cafes", 5)] == ["da"]
    # any word of a question matches, punctuation is no operator
    assert {h.doc_id for h in store.fulltext_chunks("Cafes (late)? or waiting-lists!", 5)} == {
        "da",
        "db",
    }
    assert store.fulltext_aliases("RAVENSFORD", 3)[0].entity_id == "ravensford"
    assert store.fulltext_chunks("   ", 3) == []
    assert store.fulltext_chunks("?!", 3) == []


def test_neighbourhood_hops(store: GraphStore) -> None:
    store.upsert_documents(
        [graph("d", ["x"], ["a", "b", "c", "e"], [("a", "b"), ("b", "c"), ("c", "e")])]
    )
    assert {n.id for n in store.neighbourhood("a", 1).nodes} == {"a", "b"}
    assert {n.id: n.hops for n in store.neighbourhood("a", 3).nodes} == {
        "a": 0,
        "b": 1,
        "c": 2,
        "e": 3,
    }
    assert {n.id for n in store.neighbourhood("a", 9).nodes} == {"a", "b", "c", "e"}  # capped at 3
    assert store.neighbourhood("missing", 2).nodes == []


def test_same_as_edges_are_written_keep_the_best_score_and_lose_nothing(
    store: GraphStore,
) -> None:
    from graph_schema.models import SameAs

    g = graph("a", ["alpha text", "more alpha"], ["x", "y", "z"], [("x", "y")])
    g = g.model_copy(
        update={
            "same_as": (
                SameAs(source_id="x", target_id="z", score=0.7, method="similarity"),
                SameAs(source_id="x", target_id="z", score=0.8, method="similarity"),
            )
        }
    )
    store.upsert_documents([g])
    store.upsert_documents([g])  # idempotent
    rows = store.run_read_only(
        "MATCH (a:Entity)-[s:SAME_AS]->(b:Entity) RETURN a.id AS a, b.id AS b, s.score AS score"
    )
    assert rows == [{"a": "x", "b": "z", "score": pytest.approx(0.8)}]
    counts = store.counts()
    assert (counts.documents, counts.chunks, counts.entities, counts.relations) == (1, 2, 3, 1)


def test_batch_replacing_documents_that_share_entities_keeps_them(store: GraphStore) -> None:
    a = graph("a", ["alpha one"], ["s", "x"], [])
    b = graph("b", ["beta one"], ["s", "y"], [])
    store.upsert_documents([a, b])
    a2 = graph("a", ["alpha two"], ["s", "x"], [])
    b2 = graph("b", ["beta two"], ["y"], [])
    store.upsert_documents([a2, b2])
    export = store.export_graph()
    assert sorted(export.entity_ids) == ["s", "x", "y"]
    assert "s" in {e for _, e, _ in export.mentions}
    store.upsert_documents([graph("a", ["alpha three"], ["x"], []), b2])
    assert sorted(store.export_graph().entity_ids) == ["x", "y"]


def test_reads_by_id_key_and_page(store: GraphStore) -> None:
    store.upsert_documents([graph("da", ["one", "two"], ["a"], []), graph("db", ["three"], [], [])])
    states = store.document_states(["da", "zz"])
    assert set(states) == {"da"} and states["da"].extractor_version == "t1"
    assert [d.id for d in store.list_documents(0, 10)] == ["da", "db"]
    assert [d.chunks for d in store.list_documents(1, 10)] == [1]
    assert store.list_documents(50, 10) == []
    assert [d.id for d in store.find_documents("/x/db")] == ["db"]
    chunks = store.document_chunks("da")
    assert [c.index for c in chunks] == [0, 1] and chunks[1].text == "two"
    assert [c.chunk_id for c in store.get_chunks([chunks[1].chunk_id, "nope"])] == [
        chunks[1].chunk_id
    ]
    assert store.alias_targets(["a", "nope"]) == {"a": "a"}
    assert store.export_graph().next_edges == [(chunks[0].chunk_id, chunks[1].chunk_id)]


def test_authority_and_projection_for_the_in_memory_read_model(store: GraphStore) -> None:
    store.upsert_documents(
        [
            graph("da", ["alpha met beta", "more"], ["alpha", "beta"], [("alpha", "beta")]),
            graph("db", ["beta again"], ["beta"], []),
        ]
    )
    assert store.authority_stale()
    model: GraphReadModel = InMemoryReadModel(store, 1.2, 0.75)
    assert model.refresh_authority()
    assert not store.authority_stale()
    data = store.projection_data()
    assert data.version == store.graph_version()
    assert sorted(data.doc_ids) == ["da", "db"] and len(data.chunk_embeddings[0]) == len(vec(0))
    assert sum(data.entity_pagerank) > 0 and max(data.doc_authority) > 0
    assert ("alpha", "beta", "PART_OF", 1.0) in data.relations
    top = model.dense_chunks(list(data.chunk_embeddings[0]), 1)
    assert top[0].chunk_id == data.chunk_ids[0]
    walk = model.personalized_pagerank({"alpha": 1.0}, 3)
    assert "beta" in walk


def test_explore_lookup_details_paths_and_read_only_guard(store: GraphStore) -> None:
    store.upsert_documents(
        [graph("d", ["x"], ["anna", "anders", "bob"], [("anna", "bob"), ("bob", "anders")])]
    )
    assert store.lookup_entities("anna", 2)[0].entity_id == "anna"
    assert {h.entity_id for h in store.lookup_entities("an", 5)} >= {"anna", "anders"}
    details = store.entity_details("bob")
    assert details.aliases == ("BOB",) and details.documents[0].id == "d"
    assert [e.type for e in store.edge_evidence("bob", "anna")] == ["PART_OF"]
    paths = store.paths("anna", "anders", 3)
    assert [[n.id for n in p.nodes] for p in paths] == [["anna", "bob", "anders"]]
    assert store.paths("anna", "anders", 1) == []
    ranks = store.entity_ranks(["bob", "nobody"])
    assert list(ranks) == ["bob"] and ranks["bob"].mentions >= 1
    details = store.graph_details()
    assert [d.id for d in details.documents] == ["d"]
    assert [(c.doc_id, c.index, c.text) for c in details.chunks] == [("d", 0, "x")]
    assert {e.id: e.aliases for e in details.entities}["bob"] == ("BOB",)
    assert {(r.source, r.target) for r in details.relations} == {
        ("anna", "bob"),
        ("bob", "anders"),
    }
    schema = store.describe_schema()
    assert schema.dialect == "falkordb" and "Entity" in {t.name for t in schema.nodes}
    for bad in (
        "CREATE (:Entity {id: 'x'})",
        "MATCH (e:Entity) SET e.name = 'x'",
        "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
        "MATCH (e) RETURN e; MATCH (e) DETACH DELETE e",
    ):
        with pytest.raises(ReadOnlyViolation):
            store.run_read_only(bad)
    assert store.counts().entities == 3
