"""neo4j-graphrag's vector retriever and the Neo4j read model on a real Neo4j with the real
embedder (384-d), the demo corpus ingested. Wipes its database like test_neo4j_store (same
server)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from graph_store.neo4j.store import Neo4jGraphStore
from kg.container import build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.conftest import DEMO, FIXTURES
from tests.integration.graph_store.neo4j.graphs import (
    DATABASE,
    PASSWORD,
    PREFIX,
    URI,
    USER,
    driver_run,
)

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]

EXPECTED = json.loads((FIXTURES / "demo_expected.json").read_text(encoding="utf-8"))


def _drop_vector_indexes() -> None:
    for name in ("chunk_embedding", "entity_embedding"):
        driver_run(f"DROP INDEX {name} IF EXISTS")


@pytest.fixture(scope="module")
def demo_store(
    neo4j_server: str,
    embedder: SentenceTransformerEmbedder,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Neo4jGraphStore]:
    foreign = driver_run(
        "MATCH (d:Document) WHERE NOT d.id STARTS WITH $prefix AND NOT d.uri STARTS WITH $demo "
        "RETURN count(d) AS n",
        prefix=PREFIX,
        demo=str(DEMO),
    )
    if foreign and foreign[0]["n"]:
        pytest.fail(f"{URI} holds real documents; these tests wipe their database", False)
    driver_run("MATCH (n) DETACH DELETE n")
    _drop_vector_indexes()
    store = Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, embedder.dimension, "minilm")
    store.open()
    store.init_schema()
    # The composition root's ingestor and read model (GDS), over this store and embedder.
    c = build(Settings(data_dir=tmp_path_factory.mktemp("unused"), store="neo4j"))
    c.embedder, c.store = embedder, store
    c.ingestor().ingest_paths([DEMO])
    yield store
    store.close()
    driver_run("MATCH (n) DETACH DELETE n")
    _drop_vector_indexes()  # the other Neo4j tests use 8-d vectors


def test_vector_candidates_come_from_graphrag_vector_retriever(
    demo_store: Neo4jGraphStore, embedder: SentenceTransformerEmbedder
) -> None:
    vector = embedder.embed(["crisis cafés run by the mental health trust"])[0]
    hits = demo_store.graphrag_vector_chunks(vector, 5)
    assert hits and len(hits) <= 5
    assert any("crisis caf" in h.text.lower() for h in hits)
    assert all(h.chunk_id.startswith(h.doc_id) and h.doc_title for h in hits)
    # The same index as the adapter's own query, through neo4j-graphrag: same chunks, cosine.
    plain = demo_store.vector_search_chunks(vector, 5)
    assert [h.chunk_id for h in hits] == [h.chunk_id for h in plain]
    assert [h.score for h in hits] == pytest.approx([h.score for h in plain], abs=1e-6)


def test_graph_preset_and_agent_context_on_the_neo4j_read_model(
    demo_store: Neo4jGraphStore,
    embedder: SentenceTransformerEmbedder,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The composition root picks the Neo4j read model (GDS is there), its walk and paths on
    the topology in the process (the default); the demo's multi-hop question reaches the
    national plan through stated relations, as on the embedded store."""
    from agents.context import link_entities, neighbours
    from graph_store.neo4j.read_model import Neo4jReadModel
    from retrieval.topology_model import TopologyReadModel

    c = build(Settings(data_dir=tmp_path_factory.mktemp("unused"), store="neo4j"))
    c.embedder, c.store = embedder, demo_store
    model = c.read_model()
    assert isinstance(model, TopologyReadModel) and isinstance(model.inner, Neo4jReadModel)
    assert c.searcher().model is model
    got = c.searcher().retrieve(EXPECTED["question"], k=8, preset="graph")
    titles = [r.doc_title for r in got.results]
    assert EXPECTED["trust_priorities_title"] in titles
    plan = EXPECTED["national_plan_title"]
    assert plan in titles
    hit = next(r for r in got.results if r.doc_title == plan)
    assert "Northdale Mental Health Trust" in hit.path[0]
    assert any("IMPLEMENTS" in step for step in hit.path)
    assert any(x.name == "Northdale Mental Health Trust" for x in got.linked)
    linked = c.searcher().retrieve("What does Northdale Minds run?", k=5).linked
    assert linked[0].name == "Northdale Mental Health Trust" and linked[0].method == "alias"
    # The agent's context: the same linker and path search through the same port.
    settings = c.settings.agent
    vector = embedder.embed([EXPECTED["question"]])[0]
    links = link_entities(model, EXPECTED["question"], vector, settings, c.settings.retrieval)
    assert links.entities[0].name == "Northdale Mental Health Trust"
    _, ranked = neighbours(model, links.entities, settings)
    assert any(n.name == plan and "IMPLEMENTS" in n.path for n in ranked)


def test_demo_aliases_and_path_on_neo4j(demo_store: Neo4jGraphStore) -> None:
    nmht = demo_store.lookup_entities("Northdale Minds", 3)[0]
    assert nmht.name == "Northdale Mental Health Trust" and nmht.score == 1.0
    plan = demo_store.lookup_entities("Horizon Ten National Health Plan 2025-2035", 1)[0]
    found = demo_store.paths(nmht.entity_id, plan.entity_id, 3)
    assert found and all(p.nodes[-1].id == plan.entity_id for p in found)
