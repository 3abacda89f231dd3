"""The Neo4j adapter's own behaviour on a real server: schema version checks and the read-only
guard (the port's contract, shared with every store: ../contract/; GDS and explore:
test_neo4j_graph.py). The server is
NEO4J_URI (NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE) or, when that is unset, a local Neo4j +
GDS + APOC the session starts (tests/neo4j_local.py).

The tests wipe the database they are pointed at, so they refuse (fail on) a database that holds
documents they did not write: use a throwaway server.
"""

from __future__ import annotations

import pytest

from core.errors import ReadOnlyViolation, SchemaVersionError
from graph_store.neo4j.store import Neo4jGraphStore
from tests.integration.graph_store.neo4j.graphs import DIM, driver_run, graph
from tests.neo4j_local import DATABASE, PASSWORD, URI, USER

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]


def test_schema_version_mismatch_is_a_clear_error(store: Neo4jGraphStore) -> None:
    store._write("meta_set", key="schema_version", value="0")
    with pytest.raises(SchemaVersionError, match="kg init --reset"):
        Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM, "m").open()
    store.init_schema()
    with pytest.raises(SchemaVersionError):
        Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM * 2, "other").open()
    driver_run("MATCH (m:Meta) DELETE m")  # no stored dimension: the indexes still tell
    other = Neo4jGraphStore(URI, USER, PASSWORD, DATABASE, DIM * 2, "other")
    other.open()
    with pytest.raises(SchemaVersionError, match="DROP INDEX chunk_embedding"):
        other.init_schema()
    other.close()


def test_read_only_guard(store: Neo4jGraphStore) -> None:
    store.upsert_documents([graph("da", ["x"], ["a"], [])])
    rows = store.run_read_only("MATCH (e:Entity {id: $id}) RETURN e.name AS name", {"id": "a"})
    assert rows == [{"name": "A"}]
    for text in (
        "CREATE (n:Entity {id: 'evil'}) RETURN n",
        "MATCH (n) DETACH DELETE n",
        "MATCH (e:Entity) SET e.name = 'x' RETURN e",
        "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
        "EXPLAIN MATCH (n) RETURN n",
    ):
        with pytest.raises(ReadOnlyViolation):
            store.run_read_only(text)
    assert store.counts().entities == 1 and store.existing_entity_ids(["evil"]) == set()
