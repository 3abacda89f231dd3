"""The stores every contract test runs on: one fixture parametrised by ``STORE_FACTORIES``.

A factory takes the test's ``pytest.FixtureRequest`` and a temp dir and is a context manager
yielding an opened, schema-initialised, empty store of the ``GraphStore`` port (and, where the
adapter has it, the explorer and the read-only query port). A new adapter adds one entry.
``READ_MODEL_FACTORIES`` names the read models the composition root can give a store (the
in-memory one unless the adapter brings its own); the read-model tests run on each.

Document ids start with ``PREFIX`` on every store: the Neo4j tests wipe their database and
refuse one holding documents they did not write (tests/integration/graph_store/neo4j).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from graph_schema import DocumentGraph
from graph_store.port import GraphStore
from graph_store.read_model import GraphReadModel
from retrieval.read_model import InMemoryReadModel
from tests.integration.tiny_graphs import DIM
from tests.integration.tiny_graphs import graph as tiny_graph
from tests.stores import opened_store

PREFIX = "t-"

StoreFactory = Callable[[pytest.FixtureRequest, Path], AbstractContextManager[Any]]


def kuzu_store(request: pytest.FixtureRequest, tmp_path: Path) -> AbstractContextManager[Any]:
    from graph_store.kuzu.store import KuzuGraphStore

    return opened_store(lambda: KuzuGraphStore(tmp_path / "g.kuzu", DIM, "test-model"))


@contextmanager
def neo4j_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """The throwaway database of tests/integration/graph_store/neo4j (its safety check and
    wipe), started or found as every Neo4j test does."""
    request.getfixturevalue("neo4j_server")
    from tests.integration.graph_store.neo4j.graphs import fresh_store, refuse_foreign

    refuse_foreign()
    with fresh_store() as s:
        yield s


def falkordb_store(request: pytest.FixtureRequest, tmp_path: Path) -> AbstractContextManager[Any]:
    """Its own redis-server with the FalkorDB module on a fresh data directory."""
    from graph_store.falkordb.store import FalkorGraphStore

    return opened_store(lambda: FalkorGraphStore(tmp_path / "g.falkordb", DIM, "test-model"))


STORE_FACTORIES: dict[str, StoreFactory] = {
    "kuzu": kuzu_store,
    "neo4j": neo4j_store,
    "falkordb": falkordb_store,
}


def _neo4j_read_model(store: Any) -> GraphReadModel:
    from graph_store.neo4j.read_model import Neo4jReadModel

    return Neo4jReadModel(store)


def _neo4j_topology_model(store: Any) -> GraphReadModel:
    """The default on Neo4j: the walk and the paths over the topology in the process, built
    before each call that finds it older than the graph (a test writes, then reads)."""
    from graph_store.neo4j.read_model import Neo4jReadModel
    from retrieval.topology_model import TopologyReadModel

    return TopologyReadModel(Neo4jReadModel(store), store.topology_data, background=False)


# The read models each store is given besides the in-memory one (the default).
READ_MODEL_FACTORIES: dict[str, dict[str, Callable[[Any], GraphReadModel]]] = {
    "neo4j": {"database": _neo4j_read_model, "topology": _neo4j_topology_model},
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every store for the store's tests; for the read model's, every read model of each."""
    if "store_name" not in metafunc.fixturenames:
        return
    models = "read_model" in metafunc.fixturenames
    params = []
    for name in STORE_FACTORIES:
        marks = [pytest.mark.neo4j] if name == "neo4j" else []
        kinds = list(READ_MODEL_FACTORIES.get(name, {"memory": InMemoryReadModel}))
        if not models:
            params.append(pytest.param(name, marks=marks, id=name))
            continue
        for kind in kinds:
            label = name if len(kinds) == 1 else f"{name}-{kind}"
            params.append(pytest.param(name, kind, marks=marks, id=label))
    metafunc.parametrize(("store_name", "model_kind") if models else "store_name", params)


@pytest.fixture()
def store(request: pytest.FixtureRequest, store_name: str, tmp_path: Path) -> Iterator[Any]:
    with STORE_FACTORIES[store_name](request, tmp_path) as s:
        assert isinstance(s, GraphStore)
        yield s


@pytest.fixture()
def read_model(store: Any, store_name: str, model_kind: str) -> GraphReadModel:
    make = READ_MODEL_FACTORIES.get(store_name, {}).get(model_kind)
    return make(store) if make is not None else InMemoryReadModel(store)


def graph(
    doc: str, texts: list[str], ents: list[str], rels: list[tuple[str, str]]
) -> DocumentGraph:
    return tiny_graph(doc, texts, ents, rels, PREFIX)
