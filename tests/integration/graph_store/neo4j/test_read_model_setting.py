"""``KG_NEO4J__READ_MODEL``: "database" keeps the graph work in Neo4j, "topology" (the
default) runs the walk and the paths in the process over the graph's topology, "memory"
projects the Neo4j graph into the process as on the embedded store. Each answers the demo
question with the documents the graph preset is there to reach."""

from __future__ import annotations

import json

import pytest

from graph_store.neo4j.read_model import Neo4jReadModel
from kg.container import build_read_model
from retrieval.read_model import InMemoryReadModel
from retrieval.search import Searcher
from retrieval.topology_model import TopologyReadModel
from tests.conftest import FIXTURES
from tests.stores import DemoOnNeo4j

pytestmark = [pytest.mark.neo4j]

EXPECTED = json.loads((FIXTURES / "demo_expected.json").read_text(encoding="utf-8"))


KINDS = {"database": Neo4jReadModel, "topology": TopologyReadModel, "memory": InMemoryReadModel}


@pytest.mark.parametrize("mode", list(KINDS))
def test_both_read_models_reach_the_plan_through_relations(
    neo4j_demo: DemoOnNeo4j, mode: str
) -> None:
    demo = neo4j_demo.get()
    settings = demo.settings.model_copy(
        update={"neo4j": demo.settings.neo4j.model_copy(update={"read_model": mode})}
    )
    model = build_read_model(settings, demo.store)
    assert isinstance(model, KINDS[mode])
    model.prepare()
    if isinstance(model, TopologyReadModel):
        assert model.topology() is not None  # the walk and the paths below run on it
    searcher = Searcher(demo.store, demo.embedder, settings.retrieval, model)
    got = searcher.retrieve(EXPECTED["question"], 8, "graph")
    titles = [r.doc_title for r in got.results]
    assert EXPECTED["trust_priorities_title"] in titles, titles
    assert EXPECTED["national_plan_title"] in titles, titles
    plan = next(r for r in got.results if r.doc_title == EXPECTED["national_plan_title"])
    assert any("IMPLEMENTS" in step for step in plan.path)
