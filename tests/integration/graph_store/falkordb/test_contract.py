"""FalkorDB-specific store behaviours beyond the port's contract suite
(tests/integration/graph_store/contract, which runs on this adapter too): any-word full-text
queries, reads by id and page, the in-memory read model's inputs, the explorer and the
read-only guard, version moves on identical rewrites."""

from __future__ import annotations

import pytest

from core.errors import ReadOnlyViolation
from graph_store import GraphStore
from graph_store.read_model import GraphReadModel
from retrieval.read_model import InMemoryReadModel
from tests.integration.tiny_graphs import graph, vec


def test_the_adapter_is_a_graph_store(store: GraphStore) -> None:
    assert isinstance(store, GraphStore)


def test_rewriting_moves_the_version_and_batch_delete_counts_present(store: GraphStore) -> None:
    docs = [graph("da", ["alpha one"], ["a"], []), graph("db", ["beta"], ["b"], [])]
    store.upsert_documents(docs)
    version = store.graph_version()
    store.upsert_documents(docs)
    assert store.graph_version() != version  # every committed write moves the version on
    assert store.delete_documents(["db", "nope"]) == 1
    assert store.delete_documents(["da", "db"]) == 1
    assert store.counts().documents == 0


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
    whole = store.graph_details()
    assert [d.id for d in whole.documents] == ["d"]
    assert [(c.doc_id, c.index, c.text) for c in whole.chunks] == [("d", 0, "x")]
    assert {e.id: e.aliases for e in whole.entities}["bob"] == ("BOB",)
    assert {(r.source, r.target) for r in whole.relations} == {
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
