"""neo4j-graphrag's hybrid retriever on a real Neo4j with the real embedder (384-d), the demo
corpus ingested. Wipes its database like test_neo4j_store (same server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graph_store.neo4j.store import Neo4jGraphStore
from kg.container import build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.conftest import DEMO
from tests.integration.test_neo4j_store import (
    DATABASE,
    PASSWORD,
    PREFIX,
    URI,
    USER,
    _driver_run,
)

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]


def _drop_vector_indexes() -> None:
    for name in ("chunk_embedding", "entity_embedding"):
        _driver_run(f"DROP INDEX {name} IF EXISTS")


@pytest.fixture(scope="module")
def demo_store(
    neo4j_server: str,
    embedder: SentenceTransformerEmbedder,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Neo4jGraphStore]:
    foreign = _driver_run(
        "MATCH (d:Document) WHERE NOT d.id STARTS WITH $prefix AND NOT d.uri STARTS WITH $demo "
        "RETURN count(d) AS n",
        prefix=PREFIX,
        demo=str(DEMO),
    )
    if foreign and foreign[0]["n"]:
        pytest.fail(f"{URI} holds real documents; these tests wipe their database", False)
    _driver_run("MATCH (n) DETACH DELETE n")
    _drop_vector_indexes()
    store = Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, embedder.dimension, "minilm")
    store.open()
    store.init_schema()
    # The composition root's ingestor, over this store and the session's embedder.
    c = build(Settings(data_dir=tmp_path_factory.mktemp("unused")))
    c.embedder, c.store = embedder, store
    c.ingestor().ingest_paths([DEMO])
    yield store
    store.close()
    _driver_run("MATCH (n) DETACH DELETE n")
    _drop_vector_indexes()  # the other Neo4j tests use 8-d vectors


def test_hybrid_search_finds_the_passage(
    demo_store: Neo4jGraphStore, embedder: SentenceTransformerEmbedder
) -> None:
    hits = demo_store.hybrid_search("crisis cafés run by the mental health trust", 5, embedder)
    assert hits and len(hits) <= 5
    assert any("crisis caf" in h.text.lower() for h in hits)
    assert all(h.chunk_id.startswith(h.doc_id) and h.doc_title for h in hits)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    # Lucene syntax in the question is searched for as words, never parsed.
    assert demo_store.hybrid_search('crisis AND (cafés" OR ~/*', 3, embedder)


def test_demo_aliases_and_path_on_neo4j(demo_store: Neo4jGraphStore) -> None:
    nmht = demo_store.lookup_entities("Northdale Minds", 3)[0]
    assert nmht.name == "Northdale Mental Health Trust" and nmht.score == 1.0
    plan = demo_store.lookup_entities("Horizon Ten National Health Plan 2025-2035", 1)[0]
    found = demo_store.paths(nmht.entity_id, plan.entity_id, 3)
    assert found and all(p.nodes[-1].id == plan.entity_id for p in found)
