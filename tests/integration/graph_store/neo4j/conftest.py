"""A throwaway Neo4j database for the adapter's tests: emptied before each test, and refused
(the tests fail) when it holds documents the tests did not write."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graph_store.neo4j.store import Neo4jGraphStore
from tests.integration.graph_store.neo4j.graphs import DIM, PREFIX, driver_run, has_gds
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER


@pytest.fixture(scope="module", autouse=True)
def _fresh_indexes(neo4j_server: str) -> None:
    foreign = driver_run(
        "MATCH (d:Document) WHERE NOT d.id STARTS WITH $prefix RETURN count(d) AS n",
        prefix=PREFIX,
    )
    if foreign and foreign[0]["n"]:
        pytest.fail(f"{URI} holds real documents; these tests wipe their database", False)
    # Vector indexes keep the dimension they were created with: start from ours.
    for name in ("chunk_embedding", "entity_embedding"):
        driver_run(f"DROP INDEX {name} IF EXISTS")


@pytest.fixture()
def store() -> Iterator[Neo4jGraphStore]:
    if has_gds():
        driver_run(
            "CALL gds.graph.list() YIELD graphName "
            "CALL gds.graph.drop(graphName, false) YIELD graphName AS dropped RETURN count(*)"
        )
    driver_run("MATCH (n) DETACH DELETE n")
    s = Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM, "test-model")
    s.open()
    s.init_schema()
    s.init_schema()  # idempotent
    yield s
    s.close()
