"""Tiny document graphs for the Neo4j adapter's tests, and raw Cypher for their set-up."""

from __future__ import annotations

from typing import Any

from graph_schema import DocumentGraph
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
