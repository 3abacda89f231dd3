"""The embedded store's read-only guard on the demo graph: reads run, and every way of writing,
touching files, changing settings or leaving the read-only transaction is refused with the
graph left exactly as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.errors import InputError, ReadOnlyViolation, StoreError
from graph_store.explore_port import GraphExplorer
from kg.container import Container


def digest(c: Container) -> tuple[Any, ...]:
    store = c.store
    return (
        store.counts(),
        store.export_graph(),
        store.list_documents(0, 1000),
        store.graph_version(),
    )


def attempts(tmp: Path) -> list[str]:
    out = tmp / "out"
    return [
        "CREATE (e:Entity {id: 'evil'}) RETURN e.id",
        "MERGE (e:Entity {id: 'evil'}) RETURN e.id",
        "MATCH (e:Entity) SET e.name = 'x' RETURN count(*)",
        "MATCH (e:Entity) DETACH DELETE e",
        "MATCH (:Entity)-[r:RELATED]->(:Entity) DELETE r",
        "match (e:Entity) /* a comment */ set e.pagerank = 1.0",
        "RETURN 1; COMMIT; CREATE (e:Entity {id: 'evil'})",
        "MATCH (e:Entity) RETURN e.id; MATCH (e:Entity) DETACH DELETE e",
        "RETURN 'a\\\\'; CREATE (e:Entity {id: 'evil'})",
        "RETURN 'a\\'; CREATE (e:Entity {id: 'evil'})",
        "BEGIN TRANSACTION",
        "COMMIT",
        "CHECKPOINT",
        f"COPY (MATCH (e:Entity) RETURN e.id) TO '{out}.csv'",
        f"EXPORT DATABASE '{out}'",
        f"IMPORT DATABASE '{out}'",
        "LOAD FROM '/etc/passwd' (file_format = 'csv', header = false) RETURN *",
        f"ATTACH '{out}' AS other (dbtype kuzu)",
        "USE other",
        "INSTALL json",
        "LOAD EXTENSION json",
        "CREATE NODE TABLE Evil(id STRING PRIMARY KEY)",
        "DROP TABLE Meta",
        "ALTER TABLE Entity ADD evil INT64",
        "CREATE MACRO evil(x) AS x + 1",
        "CALL CREATE_FTS_INDEX('Entity', 'evil_fts', ['name'])",
        "CALL DROP_FTS_INDEX('Chunk', 'chunk_fts')",
        "CALL DROP_VECTOR_INDEX('Chunk', 'chunk_emb')",
        "CALL PROJECT_GRAPH('G', ['Entity'], ['RELATED'])",
        "CALL threads = 1",
        "CALL SHOW_FUNCTIONS() RETURN *",
        "RETURN nextval('evil_seq')",
        "RETURN 'unterminated",
        "MATCH (e:Entity) RETURN e /* unterminated",
    ]


def test_reads_run_with_params_and_row_cap(explorer: GraphExplorer) -> None:
    rows = explorer.run_read_only(
        "MATCH (a:Alias {normalized: $key})-[:ALIAS_OF]->(e:Entity) RETURN e.name AS name",
        {"key": "nmht"},
    )
    assert rows == [{"name": "Northdale Mental Health Trust"}]
    assert len(explorer.run_read_only("MATCH (c:Chunk) RETURN c.id", max_rows=3)) == 3
    # Keywords inside strings and comments, and a trailing semicolon, are not statements.
    rows = explorer.run_read_only(
        "MATCH (e:Entity) // ; CREATE\nWHERE e.name = 'CREATE; DROP' RETURN count(*) AS n;"
    )
    assert rows == [{"n": 0}]
    node = explorer.run_read_only("MATCH (e:Entity) RETURN e LIMIT 1")[0]["e"]
    assert "_id" not in node and node["_label"] == "Entity"
    hits = explorer.run_read_only(
        "CALL QUERY_FTS_INDEX('Alias', 'alias_fts', 'NMHT') RETURN node.name AS name"
    )
    assert {"name": "NMHT"} in hits


def test_every_write_or_escape_is_refused(
    explore_demo: Container, explorer: GraphExplorer, tmp_path: Path
) -> None:
    before = digest(explore_demo)
    for text in attempts(tmp_path):
        with pytest.raises(ReadOnlyViolation, match="refused"):
            explorer.run_read_only(text)
        # The connection is left usable, outside any transaction.
        assert explorer.run_read_only("RETURN 1 AS one") == [{"one": 1}]
    assert digest(explore_demo) == before
    assert list(tmp_path.iterdir()) == []  # nothing exported or copied


def test_long_queries_are_stopped(explorer: GraphExplorer) -> None:
    with pytest.raises(StoreError, match="longer than"):
        explorer.run_read_only("MATCH (a)-[*1..8]-(b) RETURN count(*)", timeout_s=0.05)
    assert explorer.run_read_only("RETURN 2 AS two") == [{"two": 2}]


def test_empty_and_broken_queries(explorer: GraphExplorer) -> None:
    with pytest.raises(InputError):
        explorer.run_read_only("  ")
    with pytest.raises(StoreError, match="failed"):
        explorer.run_read_only("MATCH (n:NoSuchLabel) RETURN n")
