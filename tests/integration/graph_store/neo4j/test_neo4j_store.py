"""The Neo4j adapter's behaviour on a real server: the embedded adapter's tests plus the
read-only guard (GDS, the projection and explore: test_neo4j_graph.py). The server is
NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE) or, when that is unset, a local Neo4j +
GDS + APOC the session starts (tests/neo4j_local.py).

The tests wipe the database they are pointed at, so they refuse (fail on) a database that holds
documents they did not write: use a throwaway server.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import ReadOnlyViolation, SchemaVersionError, StoreError
from graph_schema import DocumentGraph
from graph_store.neo4j.store import Neo4jGraphStore
from graph_store.port import GraphStore
from tests.integration.graph_store.neo4j.graphs import DIM, driver_run, graph, vec
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]


def test_implements_the_port() -> None:
    assert isinstance(Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM, "m"), GraphStore)


def test_upsert_is_idempotent_and_replaces(store: Neo4jGraphStore) -> None:
    a = graph("da", ["alpha trust one", "alpha two"], ["a", "b"], [("a", "b")])
    b = graph("db", ["beta trust"], ["b", "c"], [("b", "c")])
    store.upsert_documents([a, b])
    first = store.counts()
    got = (first.documents, first.chunks, first.entities, first.relations, first.aliases)
    assert got == (2, 3, 3, 2, 3)
    store.upsert_documents([a, b])
    assert store.counts() == first
    assert len(store.export_graph().next_edges) == 1
    store.upsert_documents([graph("da", ["alpha trust one", "changed"], ["b"], [])])
    after = store.counts()
    assert (after.documents, after.chunks, after.entities, after.relations) == (2, 3, 2, 1)
    assert store.existing_entity_ids(["a", "b", "c"]) == {"b", "c"}
    assert [d.id for d in store.find_documents("T-DA")] == ["t-da"]
    assert [d.chunks for d in store.list_documents()] == [2, 1]


def test_delete_leaves_no_chunk_mention_or_orphan(store: Neo4jGraphStore) -> None:
    store.upsert_documents(
        [
            graph("da", ["x one", "x two"], ["a", "b"], [("a", "b")]),
            graph("db", ["y"], ["b"], []),
        ]
    )
    assert store.delete_document("t-da")
    assert not store.delete_document("t-da")
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
    assert all(not cid.startswith("t-da-") for cid in exported.chunk_ids)
    assert exported.entity_ids == ["b"]
    assert exported.next_edges == []


def test_shared_relation_keeps_evidence_of_remaining_document(store: Neo4jGraphStore) -> None:
    store.upsert_documents(
        [
            graph("da", ["x"], ["a", "b"], [("a", "b")]),
            graph("db", ["y"], ["a", "b"], [("a", "b")]),
        ]
    )
    sub = store.neighbourhood("a", 1)
    assert len(sub.edges) == 1 and len(sub.edges[0].evidence) == 2
    store.delete_document("t-da")
    sub = store.neighbourhood("a", 1)
    assert len(sub.edges) == 1 and all(e.startswith("t-db-") for e in sub.edges[0].evidence)
    assert store.alias_targets(["a", "zz"]) == {"a": "a"}


def test_stored_entity_without_embedding_keeps_its_own(store: Neo4jGraphStore) -> None:
    """The resolver embeds only entities new to the graph; a stored one arrives bare (as on
    re-ingesting a deleted document that shares entities with others)."""

    def bare(g: DocumentGraph) -> DocumentGraph:
        return g.model_copy(
            update={"entities": tuple(e.model_copy(update={"embedding": ()}) for e in g.entities)}
        )

    store.upsert_documents([graph("da", ["x"], ["a", "b"], [("a", "b")])])
    store.upsert_documents([bare(graph("db", ["y"], ["a"], []))])
    assert store.counts().documents == 2
    assert store.vector_search_entities(vec(len("a")), 1)[0].entity_id == "a"
    with pytest.raises(StoreError, match="not in the graph"):
        store.upsert_documents([bare(graph("dc", ["z"], ["c"], []))])
    assert store.counts().documents == 2  # the failed write left nothing behind


def test_vector_search_matches_brute_force(store: Neo4jGraphStore) -> None:
    docs = [graph(f"d{i}", [f"text {i} {j}" for j in range(3)], [f"e{i}"], []) for i in range(6)]
    store.upsert_documents(docs)
    q = vec(3)
    hits = store.vector_search_chunks(q, 5)
    chunks = [c for d in docs for c in d.chunks]
    sims = sorted((float(np.dot(q, c.embedding)) for c in chunks), reverse=True)
    assert [h.score for h in hits] == pytest.approx(sims[:5], abs=1e-3)
    assert store.vector_search_entities(vec(2), 1)[0].score == pytest.approx(1.0, abs=1e-3)


def test_fulltext_escapes_user_text(store: Neo4jGraphStore) -> None:
    store.upsert_documents(
        [
            graph("da", ["the crisis cafes open"], ["northdale"], []),
            graph("db", ["waiting lists"], ["ravensford"], []),
        ]
    )
    store.upsert_documents([graph("da", ["the crisis cafes open late"], ["northdale"], [])])
    store.refresh_indexes()
    assert [h.doc_id for h in store.fulltext_chunks("cafes", 5)] == ["t-da"]
    assert [h.doc_id for h in store.fulltext_chunks('cafes AND (open" OR ~/*', 5)] == ["t-da"]
    assert store.fulltext_aliases("RAVENSFORD", 3)[0].entity_id == "ravensford"
    assert store.fulltext_chunks("   ", 3) == []


def test_neighbourhood_hops(store: Neo4jGraphStore) -> None:
    store.upsert_documents(
        [graph("d", ["x"], ["a", "b", "c", "e"], [("a", "b"), ("b", "c"), ("c", "e")])]
    )
    assert {n.id for n in store.neighbourhood("a", 1).nodes} == {"a", "b"}
    hops = {n.id: n.hops for n in store.neighbourhood("a", 3).nodes}
    assert hops == {"a": 0, "b": 1, "c": 2, "e": 3}
    assert {n.id for n in store.neighbourhood("a", 9).nodes} == {"a", "b", "c", "e"}  # capped
    assert store.neighbourhood("missing", 2).nodes == []


def test_schema_version_mismatch_is_a_clear_error(store: Neo4jGraphStore) -> None:
    store._write("meta_set", key="schema_version", value="0")
    with pytest.raises(SchemaVersionError, match="kg init --reset"):
        Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM, "m").open()
    store.init_schema()
    with pytest.raises(SchemaVersionError):
        Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM * 2, "other").open()
    driver_run("MATCH (m:Meta) DELETE m")  # no stored dimension: the indexes still tell
    other = Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM * 2, "other")
    other.open()
    with pytest.raises(SchemaVersionError, match="DROP INDEX chunk_embedding"):
        other.init_schema()
    other.close()


def test_read_only_guard(store: Neo4jGraphStore) -> None:
    store.upsert_documents([graph("da", ["x"], ["a"], [])])
    rows = store.run_read_only("MATCH (e:Entity {id: $id}) RETURN e.name AS name", {"id": "a"})
    assert rows == [{"name": "A"}]
    for text in (
        "CREATE (n:Entity {id: 'evil'}) RETURN n",
        "MATCH (n) DETACH DELETE n",
        "MATCH (e:Entity) SET e.name = 'x' RETURN e",
        "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
        "EXPLAIN MATCH (n) RETURN n",
    ):
        with pytest.raises(ReadOnlyViolation):
            store.run_read_only(text)
    assert store.counts().entities == 1 and store.existing_entity_ids(["evil"]) == set()
