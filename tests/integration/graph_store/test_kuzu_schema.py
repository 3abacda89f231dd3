"""The embedded schema: no dead REFERS_TO table, and the explorer's schema description read
through Kùzu's public catalogue functions only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import kuzu
import pytest

from graph_store.kuzu.store import KuzuGraphStore
from tests.integration.tiny_graphs import DIM, graph


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[KuzuGraphStore]:
    s = KuzuGraphStore(tmp_path / "g.kuzu", DIM, "test-model")
    s.open()
    s.init_schema()
    yield s
    s.close()


def _tables(store: KuzuGraphStore) -> set[str]:
    return {row[0] for row in store._run_raw("CALL SHOW_TABLES() RETURN name")}


def test_a_new_store_has_no_refers_to_table(store: KuzuGraphStore) -> None:
    assert {"Document", "Chunk", "Entity", "Alias", "RELATED", "SAME_AS"} <= _tables(store)
    assert "REFERS_TO" not in _tables(store)


def test_a_store_made_before_loses_its_empty_refers_to_table(store: KuzuGraphStore) -> None:
    # The layout of schema version 1 as it was: the table declared, never written.
    store._run_raw("CREATE REL TABLE REFERS_TO(FROM Document TO Document, weight DOUBLE)")
    store.upsert_documents([graph("da", ["the crisis cafes open"], ["northdale"], [])])
    store.init_schema()
    assert "REFERS_TO" not in _tables(store)
    assert set(store.document_states(["da"])) == {"da"}


def test_schema_description_needs_no_private_binding_api(
    store: KuzuGraphStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.upsert_documents([graph("da", ["the crisis cafes open"], ["northdale", "lyra"], [])])
    store.upsert_documents(
        [graph("db", ["the trust runs cafes"], ["northdale", "trust"], [("northdale", "trust")])]
    )
    # What the explorer used to read: the binding's underscore helpers, absent from LadybugDB
    # and free to change in any Kùzu release.
    for name in ("_get_node_table_names", "_get_rel_table_names", "_get_node_property_names"):
        monkeypatch.delattr(kuzu.Connection, name)
    schema = store.describe_schema()
    nodes = {t.name: {p.name: p.type for p in t.properties} for t in schema.nodes}
    assert set(nodes) == {"Document", "Chunk", "Entity", "Alias", "NumericFact"}
    assert nodes["Chunk"]["text"] == "STRING" and "embedding" not in nodes["Chunk"]
    assert "embedding" not in nodes["Entity"] and nodes["Entity"]["mentions"] == "INT64"
    rels = {t.name: t for t in schema.relationships}
    assert set(rels) == {"HAS_CHUNK", "MENTIONS", "ALIAS_OF", "RELATED", "SAME_AS"}
    assert (rels["RELATED"].source, rels["RELATED"].target) == ("Entity", "Entity")
    assert (rels["HAS_CHUNK"].source, rels["HAS_CHUNK"].target) == ("Document", "Chunk")
    assert {p.name: p.type for p in rels["RELATED"].properties}["evidence"] == "STRING"
    assert schema.relation_types == ("PART_OF",)
