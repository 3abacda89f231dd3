"""The Neo4j adapter's behaviour on a real server: the embedded adapter's tests plus GDS and the
read-only guard. The server is NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE) or, when
that is unset, a local Neo4j + GDS + APOC the session starts (tests/neo4j_local.py).

The tests wipe the database they are pointed at, so they refuse (fail on) a database that holds
documents they did not write: use a throwaway server.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from core.errors import (
    InputError,
    NotFoundError,
    ReadOnlyViolation,
    SchemaVersionError,
    StoreError,
)
from graph_schema import Alias, Chunk, Document, DocumentGraph, Entity, Mention, Relation
from graph_store.neo4j.read_model import Neo4jReadModel
from graph_store.neo4j.store import Neo4jGraphStore
from graph_store.port import GraphStore
from retrieval.projection import Projection
from retrieval.read_model import InMemoryReadModel
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

DIM = 8
PREFIX = "t-"  # every test document id starts with this; see the safety check below

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]


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


def _driver_run(text: str, **params: Any) -> list[Any]:
    """Raw Cypher for test set-up only (wiping the test database), never in the adapter."""
    import neo4j

    with neo4j.GraphDatabase.driver(URI, auth=(USER, PASSWORD)) as driver:
        records, _, _ = driver.execute_query(text, params, database_=DATABASE)
        return list(records)


@pytest.fixture(scope="module", autouse=True)
def _fresh_indexes(neo4j_server: str) -> None:
    foreign = _driver_run(
        "MATCH (d:Document) WHERE NOT d.id STARTS WITH $prefix RETURN count(d) AS n",
        prefix=PREFIX,
    )
    if foreign and foreign[0]["n"]:
        pytest.fail(f"{URI} holds real documents; these tests wipe their database", False)
    # Vector indexes keep the dimension they were created with: start from ours.
    for name in ("chunk_embedding", "entity_embedding"):
        _driver_run(f"DROP INDEX {name} IF EXISTS")


@pytest.fixture()
def store() -> Iterator[Neo4jGraphStore]:
    if _has_gds():
        _driver_run(
            "CALL gds.graph.list() YIELD graphName "
            "CALL gds.graph.drop(graphName, false) YIELD graphName AS dropped RETURN count(*)"
        )
    _driver_run("MATCH (n) DETACH DELETE n")
    s = Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM, "test-model")
    s.open()
    s.init_schema()
    s.init_schema()  # idempotent
    yield s
    s.close()


def _has_gds() -> bool:
    try:
        _driver_run("RETURN gds.version() AS v")
    except Exception:  # any refusal means no GDS
        return False
    return True


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
    _driver_run("MATCH (m:Meta) DELETE m")  # no stored dimension: the indexes still tell
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


def projection_names(store: Neo4jGraphStore) -> set[str]:
    rows = store.run_read_only("CALL gds.graph.list() YIELD graphName AS g RETURN g")
    return {str(r["g"]) for r in rows}


@pytest.mark.parametrize("where", ["gds", "memory"])
def test_authority_refresh_matches_the_in_memory_projection(
    store: Neo4jGraphStore, where: str
) -> None:
    """GDS PageRank written by the Neo4j read model, or the in-memory read model's (the
    fallback without GDS): the projection's scores either way."""
    store.upsert_documents(
        [
            graph("da", ["a b c", "more on b"], ["a", "b", "c"], [("a", "b"), ("c", "b")]),
            graph("db", ["b only"], ["b"], []),
        ]
    )
    model = Neo4jReadModel(store) if where == "gds" else InMemoryReadModel(store)
    assert store.authority_stale()
    assert model.refresh_authority()
    data = store.projection_data()
    stored = dict(zip(data.entity_ids, data.entity_pagerank, strict=True))
    assert max(stored, key=stored.__getitem__) == "b"
    expected, docs = Projection(data).authority(data)
    assert stored == pytest.approx(expected, abs=1e-4)
    authority = dict(zip(data.doc_ids, data.doc_authority, strict=True))
    assert authority == pytest.approx(docs, abs=1e-4)
    version = store.graph_version()
    assert not store.authority_stale()
    assert not model.refresh_authority()  # nothing changed: nothing recomputed
    assert store.graph_version() == version
    if where == "gds":
        assert len({n for n in projection_names(store) if n.startswith("kg-walk-")}) == 1
        before = projection_names(store)
        store.upsert_documents([graph("dc", ["new"], ["d"], [])])
        assert store.authority_stale()
        assert not (before & projection_names(store))  # the old graph's projection was dropped


def test_personalized_pagerank_matches_the_in_memory_projection(store: Neo4jGraphStore) -> None:
    store.upsert_documents(
        [
            graph("da", ["about a"], ["a", "b"], [("a", "b")]),
            graph("db", ["about z"], ["z"], []),
        ]
    )
    model = Neo4jReadModel(store)
    ranked = model.personalized_pagerank({"a": 1.0}, k=10)
    ids = list(ranked)
    assert ids[0] == "a"
    chunk_a = next(i for i in ids if i.startswith("t-"))
    assert chunk_a.startswith("t-da-") and "z" not in ids[:3]
    expected = Projection(store.projection_data()).personalized({"a": 1.0})
    assert ranked == pytest.approx({i: expected[i] for i in ranked}, abs=1e-3)
    # Weighted seeds in two components: GDS 2.13 takes no per-seed bias, so the adapter sums
    # one walk per seed weight (PageRank is linear in its restart vector); same scores.
    seeds = {"a": 0.6, "b": 0.6, "z": 0.3}
    mixed = model.personalized_pagerank(seeds, k=10)
    expected = Projection(store.projection_data()).personalized(seeds)
    assert set(mixed) == set(expected)
    assert mixed == pytest.approx(expected, abs=1e-3)
    assert model.personalized_pagerank({"missing": 1.0}, k=5) == {}


def test_graph_version_and_projection_data(store: Neo4jGraphStore) -> None:
    assert store.graph_version() == ""
    store.upsert_documents([graph("da", ["x one", "x two"], ["a", "b"], [("a", "b")])])
    first = store.graph_version()
    data = store.projection_data()
    assert data.version == first and data.doc_ids == ["t-da"]
    assert len(data.chunk_ids) == 2 and all(len(e) == DIM for e in data.chunk_embeddings)
    assert data.relations == [("a", "b", "PART_OF", 1.0)] and len(data.mentions) == 2
    store.upsert_documents([graph("db", ["y"], ["c"], [])])
    assert store.graph_version() != first


# --- explore (the same behaviours as the embedded store's) ----------------------------------


def explore_graph(store: Neo4jGraphStore) -> None:
    store.upsert_documents(
        [
            graph("da", ["a and b"], ["alpha", "beta"], [("alpha", "beta")]),
            graph("db", ["b, c, d"], ["beta", "gamma", "delta"], [("gamma", "beta")]),
            graph("dc", ["d and e"], ["delta", "eps"], [("delta", "eps"), ("gamma", "delta")]),
        ]
    )


def test_lookup_details_and_evidence(store: Neo4jGraphStore) -> None:
    explore_graph(store)
    hits = store.lookup_entities("BETA", 5)
    assert hits[0].entity_id == "beta" and hits[0].score == 1.0 and hits[0].matched == "BETA"
    assert store.lookup_entities("gam", 3)[0].entity_id == "gamma"  # a typed prefix
    d = store.entity_details("beta")
    assert d.aliases == ("BETA",) and {doc.id for doc in d.documents} == {"t-da", "t-db"}
    with pytest.raises(NotFoundError):
        store.entity_details("missing")
    edges = store.edge_evidence("beta", "gamma")  # stored gamma → beta
    assert [(e.source, e.target, e.type) for e in edges] == [("gamma", "beta", "PART_OF")]
    assert edges[0].evidence[0].doc_id == "t-db" and edges[0].evidence[0].text == "b, c, d"


def test_paths(store: Neo4jGraphStore) -> None:
    explore_graph(store)
    assert store.paths("alpha", "eps", 3) == []  # four hops away
    assert store.paths("alpha", "delta", 2) == []
    three = store.paths("alpha", "delta", 3)
    assert [[n.id for n in p.nodes] for p in three] == [["alpha", "beta", "gamma", "delta"]]
    assert [(e.source, e.target) for e in three[0].edges] == [
        ("alpha", "beta"),
        ("gamma", "beta"),
        ("gamma", "delta"),
    ]
    with pytest.raises(InputError):
        store.paths("alpha", "delta", 4)


def test_schema_and_text2cypher(store: Neo4jGraphStore) -> None:
    from llm import LlmSettings
    from llm.openai_compat import OpenAICompatClient
    from retrieval.text2cypher import Text2Cypher
    from tests.fakes.openai_server import FakeOpenAIServer, Reply

    explore_graph(store)
    schema = store.describe_schema()
    assert schema.dialect == "neo4j" and "PART_OF" in schema.relation_types
    related = next(t for t in schema.relationships if t.name == "RELATED")
    assert (related.source, related.target) == ("Entity", "Entity")
    assert "embedding" not in {p.name for t in schema.nodes for p in t.properties}
    read = "MATCH (e:Entity {id: 'beta'}) RETURN e.name AS name"
    with FakeOpenAIServer([Reply.text(read), Reply.text("MATCH (n) DETACH DELETE n")]) as fake:
        t2c = Text2Cypher(
            store,
            OpenAICompatClient(LlmSettings(base_url=fake.base_url, model="fake", max_retries=0)),
        )
        answer = t2c.ask("What is beta called?")
        assert answer.rows == [{"name": "Beta"}] and answer.cypher == read
        with pytest.raises(ReadOnlyViolation):
            t2c.ask("Delete everything")
    assert store.counts().entities == 5
