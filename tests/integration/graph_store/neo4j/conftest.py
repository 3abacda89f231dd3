"""A throwaway Neo4j database for the adapter's tests: emptied before each test, and refused
(the tests fail) when it holds documents the tests did not write."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graph_store.neo4j.store import Neo4jGraphStore
from tests.integration.graph_store.neo4j.graphs import fresh_store, refuse_foreign


@pytest.fixture(scope="module", autouse=True)
def _fresh_indexes(neo4j_server: str) -> None:
    refuse_foreign()


@pytest.fixture()
def store() -> Iterator[Neo4jGraphStore]:
    with fresh_store() as s:
        yield s
