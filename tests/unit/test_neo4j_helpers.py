"""The Neo4j adapter's pure parts, without a server: Lucene escaping, score mapping, chunk
order, and the read-only guard's decisions (driven through a stand-in driver)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from core.errors import ReadOnlyViolation, StoreError
from graph_schema import Chunk
from graph_store.neo4j.guard import check_plan, first_keyword, forbidden_operators, run_read_only
from graph_store.neo4j.rows import (
    cosine_from_score,
    escape_lucene,
    next_rows,
    seed_rows,
    validated_hops,
)
from graph_store.neo4j.store import Neo4jGraphStore
from graph_store.port import GraphStore


def test_constructor_does_no_io_and_implements_the_port() -> None:
    store = Neo4jGraphStore("bolt://127.0.0.1:1", "neo4j", "x", "neo4j", 8, "m")
    assert isinstance(store, GraphStore)
    with pytest.raises(StoreError, match="not open"):
        store.counts()


def test_unreachable_server_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="cannot connect"):
        Neo4jGraphStore("bolt://127.0.0.1:1", "neo4j", "x", "neo4j", 8, "m").open()


def test_lucene_escaping_keeps_words_and_drops_syntax() -> None:
    assert escape_lucene("AT&T (UK)") == r"AT\&T \(UK\)"
    assert escape_lucene('a:b "c" ~d* e?/f\\') == r"a\:b \"c\" \~d\* e\?\/f\\"
    assert escape_lucene("cats AND dogs OR NOT birds") == "cats and dogs or not birds"
    assert escape_lucene("   ") == ""


def test_cosine_mapping_and_seed_rows() -> None:
    assert cosine_from_score(1.0) == 1.0 and cosine_from_score(0.5) == 0.0
    assert seed_rows({"a": 2.0, "b": 0.0, "c": -1.0}) == [{"id": "a", "weight": 2.0}]


def test_next_rows_follow_chunk_index() -> None:
    chunks = [
        Chunk(id=f"d-{i}", doc_id="d", index=i, text="t", tokens=1, content_hash=str(i))
        for i in (2, 0, 1, 4)
    ]
    assert next_rows(chunks) == [
        {"source_id": "d-0", "target_id": "d-1"},
        {"source_id": "d-1", "target_id": "d-2"},
    ]


def test_hops_are_validated_ints() -> None:
    assert [validated_hops(h, 3) for h in (0, 1, 3, 7)] == [1, 1, 3, 3]
    for bad in (True, 1.5, "2"):
        with pytest.raises(StoreError):
            validated_hops(bad, 3)  # type: ignore[arg-type]


def test_guard_plan_checks() -> None:
    check_plan("r", {"operatorType": "ProduceResults@neo4j", "children": []})
    for query_type in ("w", "rw", "s", None):
        with pytest.raises(ReadOnlyViolation):
            check_plan(query_type, {})
    plan = {"operatorType": "ProduceResults@neo4j", "children": [{"operatorType": "LoadCSV@neo4j"}]}
    assert forbidden_operators(plan) == ["LoadCSV@neo4j"]
    with pytest.raises(ReadOnlyViolation, match="LoadCSV"):
        check_plan("r", plan)
    assert first_keyword("// note\n /* x */ explain MATCH (n) RETURN n") == "EXPLAIN"


class _Session:
    def __init__(self, query_type: str, log: list[str]) -> None:
        self.query_type = query_type
        self.log = log

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def run(self, text: str, params: dict[str, Any]) -> Any:
        self.log.append(text)
        summary = SimpleNamespace(query_type=self.query_type, plan={"operatorType": "Filter"})
        return SimpleNamespace(consume=lambda: summary)

    def execute_read(self, fn: Any, query: str, params: dict[str, Any], limit: int) -> Any:
        self.log.append("execute_read:" + query)
        return [{"n": 1}]


def _fake(query_type: str, log: list[str]) -> tuple[Any, Any]:
    neo4j = SimpleNamespace(READ_ACCESS="READ", unit_of_work=lambda timeout: lambda fn: fn)
    driver = SimpleNamespace(session=lambda **config: _Session(query_type, log))
    return neo4j, driver


def test_guard_explains_first_and_refuses_writes() -> None:
    log: list[str] = []
    neo4j, driver = _fake("rw", log)
    with pytest.raises(ReadOnlyViolation):
        run_read_only(neo4j, driver, "neo4j", "MATCH (n) SET n.x = 1", None, 5.0, 10)
    assert log == ["EXPLAIN MATCH (n) SET n.x = 1"]  # planned, never run

    log.clear()
    neo4j, driver = _fake("r", log)
    assert run_read_only(neo4j, driver, "neo4j", "MATCH (n) RETURN n", {}, 5.0, 10) == [{"n": 1}]
    assert log == ["EXPLAIN MATCH (n) RETURN n", "execute_read:MATCH (n) RETURN n"]

    with pytest.raises(ReadOnlyViolation):
        run_read_only(neo4j, driver, "neo4j", "PROFILE MATCH (n) RETURN n", {}, 5.0, 10)
