"""Every embedded-store query that unwinds a list of rows finds each row's nodes by a join, not
by scanning a whole table once per row.

Kùzu 0.11.3 plans ``UNWIND $rows AS r MATCH (e:Entity {id: r.id})`` as a cross product of the
rows with every entity, filtered: a batch's cost then grew with rows x table (setting PageRank on
37,332 entities took minutes at five times that size). With the row's fields bound first
(``WITH r.id AS id``), and one node pattern per MATCH, it joins on a hash table instead."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import cypher
from graph_store.kuzu.store import KuzuGraphStore
from tests.integration.tiny_graphs import DIM, graph

_NUMBERS = {"score": 0.5, "weight": 1.0, "confidence": 0.5, "count": 1, "value": 2.0}


def _unwinding() -> list[str]:
    unwinds = re.compile(r"^UNWIND \$", re.M)
    return [n for n in cypher.names("kuzu") if unwinds.search(cypher.load("kuzu", n))]


def _parameter(text: str) -> dict[str, object]:
    """A one-row value for the unwound parameter: a row of its fields, or a plain id."""
    unwind = re.search(r"UNWIND \$(\w+) AS (\w+)", text)
    assert unwind is not None
    name, var = unwind.groups()
    fields = sorted(set(re.findall(rf"\b{var}\.(\w+)", text)))
    if not fields:
        return {name: ["x"]}
    return {name: [{f: _NUMBERS.get(f, "x") for f in fields}]}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KuzuGraphStore]:
    s = KuzuGraphStore(Path(tmp_path_factory.mktemp("plans")) / "g.kuzu", DIM, "test-model")
    s.open()
    s.init_schema()
    s.upsert_documents([graph("da", ["x", "y"], ["a", "b"], [("a", "b")])])
    yield s
    s.close()


def test_the_queries_that_unwind_rows_are_found() -> None:
    names = _unwinding()
    assert {"entities_set_pagerank", "relations_create", "mentions_create"} <= set(names)


@pytest.mark.parametrize("name", _unwinding())
def test_unwound_rows_are_joined_not_crossed_with_a_table(store: KuzuGraphStore, name: str) -> None:
    text = cypher.load("kuzu", name)
    plan = "\n".join(str(row[0]) for row in store._run_raw("EXPLAIN " + text, _parameter(text)))

    assert "CROSS_PRODUCT" not in plan, name
