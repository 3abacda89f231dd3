"""The topology read model: the walk and the paths on the topology of the graph's current
version, the inner model's answers while it is missing or older, one build at a time in the
background, and a failed build that costs nothing but the speed."""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from typing import cast

import pytest

from core.errors import StoreUnavailable
from graph_store import GraphStore
from graph_store.types import ProjectionData, TopologyData
from retrieval.read_model import InMemoryReadModel
from retrieval.topology_model import TopologyReadModel
from tests.unit.retrieval.test_linking import _Store
from tests.unit.retrieval.test_topology import invented_graph, topology_of


class _Graph:
    """A graph whose version moves on a write, read by the inner model and the loader; the
    loader counts its reads and can be held (to watch a build in flight) or made to fail."""

    def __init__(self, data: ProjectionData) -> None:
        self.store = _Store(data)
        self.reads = 0
        self.gate = threading.Event()
        self.gate.set()
        self.fail = False

    def write(self, version: str) -> None:
        self.store.data = replace(self.store.data, version=version)

    def load(self) -> TopologyData:
        self.gate.wait(timeout=60)
        self.reads += 1
        if self.fail:
            raise StoreUnavailable("the database went away")
        return topology_of(self.store.data)


def _model(graph: _Graph, **kwargs: float | bool) -> tuple[TopologyReadModel, InMemoryReadModel]:
    inner = InMemoryReadModel(cast(GraphStore, graph.store))
    return TopologyReadModel(inner, graph.load, **kwargs), inner  # type: ignore[arg-type]


def _wait_for(model: TopologyReadModel, builds: int) -> None:
    """Until the background build has landed (observed, not timed)."""
    for thread in threading.enumerate():
        if thread.name == "kg-topology":
            thread.join(timeout=60)
    assert model.builds == builds


def test_a_question_never_waits_for_the_build() -> None:
    graph = _Graph(invented_graph(1))
    model, inner = _model(graph)
    seeds = {"ent004": 1.0, "doc3-c0": 0.5}
    graph.gate.clear()  # the build is held in flight
    walk = model.personalized_pagerank(seeds, 30)
    assert walk == inner.personalized_pagerank(seeds, 30)  # the inner model answered
    assert model.topology() is None and graph.reads == 0
    model.relation_paths({"ent004": 1.0}, 3)  # no second build while one is in flight
    graph.gate.set()
    _wait_for(model, 1)
    assert graph.reads == 1 and model.topology() is not None
    assert model.personalized_pagerank(seeds, 30) == pytest.approx(walk, abs=1e-6)
    paths = model.relation_paths({"ent004": 1.0}, 3)
    assert paths == inner.relation_paths({"ent004": 1.0}, 3)  # names read from the inner


def test_a_write_makes_the_topology_stale_until_rebuilt() -> None:
    graph = _Graph(invented_graph(2))
    model, _ = _model(graph, rebuild_gap=0.0)
    model.prepare()
    assert model.topology() is not None and model.builds == 1
    model.prepare()  # current: nothing to do
    assert model.builds == 1
    graph.write("v2")
    assert model.topology() is None  # older than the graph: not used
    model.personalized_pagerank({"ent004": 1.0}, 5)  # answered by the inner, rebuild started
    _wait_for(model, 2)
    topology = model.topology()
    assert topology is not None and topology.version == "v2"


def test_a_rebuild_waits_its_gap_after_the_last_build() -> None:
    graph = _Graph(invented_graph(3))
    model, _ = _model(graph, rebuild_gap=1e9)  # the next build in many lifetimes
    model.prepare()
    graph.write("v2")
    model.personalized_pagerank({"ent004": 1.0}, 5)
    _wait_for(model, 1)  # no thread was started
    assert graph.reads == 1
    model.prepare()  # an explicit prepare does not wait for the gap
    assert model.builds == 2


def test_a_failed_build_is_logged_and_the_inner_model_answers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    graph = _Graph(invented_graph(1))
    graph.fail = True
    model, inner = _model(graph, rebuild_gap=0.0)
    with caplog.at_level(logging.WARNING, logger="retrieval.topology_model"):
        walk = model.personalized_pagerank({"ent004": 1.0}, 10)
        _wait_for(model, 0)
    assert walk == inner.personalized_pagerank({"ent004": 1.0}, 10)
    assert "the database went away" in caplog.text
    graph.fail = False
    model.personalized_pagerank({"ent004": 1.0}, 10)  # tried again
    _wait_for(model, 1)
    with pytest.raises(StoreUnavailable):
        graph.fail = True
        graph.write("v3")
        model.prepare()  # a build asked for in the foreground raises


def test_a_pinned_model_keeps_one_topology_for_a_search() -> None:
    graph = _Graph(invented_graph(2))
    model, inner = _model(graph, rebuild_gap=1e9)
    model.prepare()
    pinned = model.pinned()
    assert pinned.pinned() is pinned
    walk = pinned.personalized_pagerank({"ent004": 1.0}, 10)
    graph.write("v2")  # a commit lands in the middle of the search
    assert pinned.personalized_pagerank({"ent004": 1.0}, 10) == walk  # still that topology
    assert model.topology() is None  # the model itself sees the write
    stale = model.pinned()  # pinned to no topology: the inner model's walk and paths
    assert stale.relation_paths({"ent004": 1.0}, 2) == inner.relation_paths({"ent004": 1.0}, 2)


def test_a_failed_build_waits_its_gap_before_the_next_try() -> None:
    graph = _Graph(invented_graph(3))
    model, _ = _model(graph, rebuild_gap=1e9)
    model.prepare()  # a build that took some time: the gap is measured on it
    graph.fail = True
    graph.write("v2")
    model._not_before = 0.0  # the gap after that build has passed
    model.personalized_pagerank({"ent004": 1.0}, 5)  # a failed try in the background
    _wait_for(model, 1)
    assert graph.reads == 2
    model.personalized_pagerank({"ent004": 1.0}, 5)  # within the failed try's gap: none
    _wait_for(model, 1)
    assert graph.reads == 2


def test_a_pinned_model_reads_mentions_and_names_from_its_topology() -> None:
    """A search's mentions and names come from the topology it walked, not a later version;
    an unpinned model (which would need a round trip to know its topology current) and one
    pinned to no topology ask the inner model."""
    graph = _Graph(invented_graph(2))
    model, inner = _model(graph, rebuild_gap=1e9)
    model.prepare()
    chunks, entities = graph.store.data.chunk_ids[:8], graph.store.data.entity_ids[:8]
    pinned = model.pinned()
    want = (
        inner.chunk_entities(chunks),
        {e: sorted(c) for e, c in inner.entity_chunks(entities).items() if c},
        inner.entity_names(entities),
    )
    graph.store.data = replace(  # a write renames an entity and drops every mention
        graph.store.data,
        version="v2",
        mentions=[],
        entity_names=["renamed", *graph.store.data.entity_names[1:]],
    )
    got = (
        pinned.chunk_entities(chunks),
        {e: sorted(c) for e, c in pinned.entity_chunks(entities).items()},
        pinned.entity_names(entities),
    )
    assert got == want
    for now in (model, model.pinned()):
        assert not any(now.chunk_entities(chunks).values())
    assert model.entity_names(entities[:1]) == {entities[0]: "renamed"}
