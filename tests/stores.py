"""The stores the analyst-facing tests run on: the embedded one and Neo4j (``make test``'s
server, ``NEO4J_URI``; see tests/neo4j_local.py).

A test opts in with ``@both_stores`` (or a module's ``pytestmark``): it then runs once per
store, and the shared ``settings`` fixture (tests/conftest.py) gives it a ``Settings`` for that
store. On Neo4j the database is emptied before and after each such test, and the session's
one database holds one graph at a time, so a demo graph on Neo4j (``demo_on``) is ingested
again whenever another test emptied it in between.

Only a throwaway database is emptied: one holding no documents but the tests' own (ids with
the contract tests' ``t-`` prefix, files under the temp folder) or carrying ``MARKER``, which
every emptying here leaves behind.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from graph_store.config import Neo4jSettings
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import Embedder
from tests import neo4j_local

MARKER = "kg_test_database"
DEMO_KEY = "kg_test_demo"
STORES = [
    pytest.param("embedded", id="embedded"),
    pytest.param("neo4j", id="neo4j", marks=pytest.mark.neo4j),
]
both_stores = pytest.mark.parametrize("store_kind", STORES)


def overrides(kind: str) -> dict[str, Any]:
    """``Settings`` fields that select ``kind``'s store (the data dir is the caller's)."""
    if kind == "embedded":
        return {}
    n = neo4j_local
    return {
        "store": "neo4j",
        "neo4j": Neo4jSettings(uri=n.URI, user=n.USER, password=n.PASSWORD, database=n.DATABASE),
    }


def env(kind: str) -> dict[str, str]:
    """``overrides(kind)`` as the ``KG_*`` variables a ``kg`` child process reads."""
    if kind == "embedded":
        return {}
    n = neo4j_local
    return {
        "KG_STORE": "neo4j",
        "KG_NEO4J__URI": n.URI,
        "KG_NEO4J__USER": n.USER,
        "KG_NEO4J__PASSWORD": n.PASSWORD,
        "KG_NEO4J__DATABASE": n.DATABASE,
    }


def _run(text: str, **params: Any) -> list[Any]:
    """Raw Cypher for emptying the test database only, never in the adapter."""
    import neo4j

    n = neo4j_local
    with neo4j.GraphDatabase.driver(n.URI, auth=(n.USER, n.PASSWORD)) as driver:
        records, _, _ = driver.execute_query(text, params, database_=n.DATABASE)
        return list(records)


def refuse_foreign() -> None:
    """Fail unless the test database is a throwaway one (see the module's docstring)."""
    marked = _run("MATCH (m:Meta {key: $key}) RETURN count(m) AS n", key=MARKER)[0]["n"]
    foreign = _run(
        "MATCH (d:Document) WHERE NOT d.id STARTS WITH 't-' AND NOT d.uri STARTS WITH $tmp "
        "RETURN count(d) AS n",
        tmp=tempfile.gettempdir(),
    )[0]["n"]
    if foreign and not marked:
        pytest.fail(f"{neo4j_local.URI} holds real documents; these tests empty it", False)


def empty_neo4j() -> None:
    """Empty the test database (GDS graphs, nodes, vector indexes) and mark it as the tests'."""
    refuse_foreign()
    _run(
        "CALL gds.graph.list() YIELD graphName "
        "CALL gds.graph.drop(graphName, false) YIELD graphName AS dropped RETURN count(*)"
    )
    _run("MATCH (n) DETACH DELETE n")
    # Vector indexes keep the dimension they were created with: the next schema sets it.
    for name in ("chunk_embedding", "entity_embedding"):
        _run(f"DROP INDEX {name} IF EXISTS")
    _run("MERGE (m:Meta {key: $key}) SET m.value = 'yes'", key=MARKER)


@contextmanager
def store_settings(request: pytest.FixtureRequest, kind: str) -> Iterator[dict[str, Any]]:
    """``overrides(kind)``, with Neo4j's database emptied before and after."""
    if kind == "embedded":
        yield {}
        return
    request.getfixturevalue("neo4j_server")
    empty_neo4j()
    try:
        yield overrides(kind)
    finally:
        empty_neo4j()


@contextmanager
def opened_store(make: Callable[[], Any]) -> Iterator[Any]:
    """``make()``'s graph store opened, its schema initialised twice (which must be
    idempotent), and closed after: the contract tests' stores."""
    s = make()
    s.open()
    s.init_schema()
    s.init_schema()
    try:
        yield s
    finally:
        s.close()


@contextmanager
def opened(settings: Settings, embedder: Embedder) -> Iterator[Container]:
    """A container on ``settings``' store, opened and schema-initialised."""
    c = build(settings)
    c.embedder = embedder
    c.store.open()
    try:
        c.store.init_schema()
        yield c
    finally:
        c.store.close()


class DemoOnNeo4j:
    """The demo graph in the Neo4j test database, ingested when first asked for and again
    whenever another test emptied the database since (``DEMO_KEY`` tells)."""

    def __init__(self, data_dir: Path, embedder: Embedder, demo: Path) -> None:
        self._data_dir = data_dir
        self._embedder = embedder
        self._demo = demo
        self._container: Container | None = None
        self._stamp = 0

    def get(self) -> Container:
        rows = _run("MATCH (m:Meta {key: $key}) RETURN m.value AS v", key=DEMO_KEY)
        if self._container is not None and rows and rows[0]["v"] == str(self._stamp):
            return self._container
        self.close()
        empty_neo4j()
        self._stamp += 1
        settings = Settings(data_dir=self._data_dir / str(self._stamp), **overrides("neo4j"))
        c = build(settings)
        c.embedder = self._embedder
        c.store.open()
        c.store.init_schema()
        c.ingestor().ingest_paths([self._demo])
        _run("MERGE (m:Meta {key: $key}) SET m.value = $v", key=DEMO_KEY, v=str(self._stamp))
        self._container = c
        return c

    def close(self) -> None:
        if self._container is not None:
            self._container.store.close()
            self._container = None
