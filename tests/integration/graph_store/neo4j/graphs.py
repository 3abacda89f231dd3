"""Tiny document graphs for the Neo4j adapter's tests, and raw Cypher for their set-up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from graph_schema import DocumentGraph
from graph_store.neo4j.store import Neo4jGraphStore
from tests import stores
from tests.integration.tiny_graphs import DIM, vec
from tests.integration.tiny_graphs import graph as tiny_graph
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

__all__ = ["DATABASE", "DIM", "PASSWORD", "URI", "USER", "vec"]

PREFIX = "t-"  # every test document id starts with this; see the safety check in conftest


def graph(
    doc: str, texts: list[str], ents: list[str], rels: list[tuple[str, str]]
) -> DocumentGraph:
    return tiny_graph(doc, texts, ents, rels, PREFIX)


def driver_run(text: str, **params: Any) -> list[Any]:
    """Raw Cypher for test set-up only (wiping the test database), never in the adapter."""
    import neo4j

    with neo4j.GraphDatabase.driver(URI, auth=(USER, PASSWORD)) as driver:
        records, _, _ = driver.execute_query(text, params, database_=DATABASE)
        return list(records)


def has_gds() -> bool:
    try:
        driver_run("RETURN gds.version() AS v")
    except Exception:  # any refusal means no GDS
        return False
    return True


def refuse_foreign() -> None:
    """Fail when the database holds documents these tests did not write (tests/stores.py
    tells); drop the vector indexes so that they are created with the tests' dimension."""
    stores.refuse_foreign()
    # Vector indexes keep the dimension they were created with: start from ours.
    for name in ("chunk_embedding", "entity_embedding"):
        driver_run(f"DROP INDEX {name} IF EXISTS")


@contextmanager
def fresh_store() -> Iterator[Neo4jGraphStore]:
    """An opened, schema-initialised store over the emptied database."""
    if has_gds():
        driver_run(
            "CALL gds.graph.list() YIELD graphName "
            "CALL gds.graph.drop(graphName, false) YIELD graphName AS dropped RETURN count(*)"
        )
    driver_run("MATCH (n) DETACH DELETE n")
    with stores.opened_store(
        lambda: Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM, "test-model")
    ) as s:
        yield s
