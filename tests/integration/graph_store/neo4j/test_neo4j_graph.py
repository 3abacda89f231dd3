"""The Neo4j adapter's graph side on a real server: GDS PageRank and personalized PageRank
against the in-memory projection, the graph version, and the explorer's lookups, paths and
schema. Same throwaway database as test_neo4j_store.py."""

from __future__ import annotations

import pytest

from core.errors import InputError, NotFoundError, ReadOnlyViolation
from graph_store.neo4j.read_model import Neo4jReadModel
from graph_store.neo4j.store import Neo4jGraphStore
from retrieval.projection import Projection
from retrieval.read_model import InMemoryReadModel
from tests.integration.graph_store.neo4j.graphs import graph

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]


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


def _operators(plan: dict[str, object]) -> list[tuple[str, str]]:
    details = plan.get("args", {})
    assert isinstance(details, dict)
    children = plan.get("children", [])
    assert isinstance(children, list)
    here = [(str(plan["operatorType"]), str(details.get("Details", "")))]
    return here + [op for child in children for op in _operators(child)]


def test_title_subjects_are_looked_up_by_seeks_right_after_a_first_ingest(
    store: Neo4jGraphStore,
) -> None:
    """An index made on an empty database keeps statistics that say it is empty until they
    are sampled again; planned with them, the title-subject links scanned every alias for
    each span of each title (4 of the 5 s that ended a 400-passage ingest). The query names
    the index, so it seeks whatever the statistics say. Reproduced here: the alias index is
    made again on the emptied database, then 200 documents are written."""
    import neo4j

    import cypher
    from tests.integration.graph_store.neo4j.graphs import DATABASE, PASSWORD, URI, USER

    with neo4j.GraphDatabase.driver(URI, auth=(USER, PASSWORD)) as driver:
        driver.execute_query("DROP CONSTRAINT alias_normalized IF EXISTS", database_=DATABASE)
        store.init_schema()  # creates it again, on an empty database
        docs = [graph(f"t-d{i}", [f"A{i} met B{i}."], [f"A{i}", f"B{i}"], []) for i in range(200)]
        store.upsert_documents(docs)
        driver.execute_query("CALL db.clearQueryCaches()", database_=DATABASE)
        _, summary, _ = driver.execute_query(
            "PROFILE " + cypher.load("neo4j", "subjects_link"), database_=DATABASE
        )
    assert summary.profile is not None
    on_aliases = [op for op, details in _operators(summary.profile) if ":Alias(" in details]
    assert on_aliases and all("Seek" in op for op in on_aliases), on_aliases
