"""Numeric facts in the FalkorDB store, as test_kuzu_numeric_facts.py for Kùzu: written with
their document in its write block, replaced whole when it is written again (the same graph
twice included), deleted with it, read back by kind. ``store`` comes from conftest.py."""

from __future__ import annotations

from graph_schema import DocumentGraph, NumericFact
from graph_store.falkordb.store import FalkorGraphStore
from tests.integration.tiny_graphs import graph


def _with_facts(g: DocumentGraph, *facts: tuple[float, str, str]) -> DocumentGraph:
    chunk = g.chunks[0].id
    return g.model_copy(
        update={
            "numeric_facts": tuple(
                NumericFact(
                    id=f"{chunk}#n{i}",
                    doc_id=g.document.id,
                    chunk_id=chunk,
                    value=v,
                    unit="GBP",
                    measure=m,
                    kind=k,
                    entity_id="a",
                    entity_name="A",
                    text=f"{m} {v}",
                )
                for i, (v, m, k) in enumerate(facts)
            )
        }
    )


def _facts(store: FalkorGraphStore, *kinds: str) -> list[tuple[str, float, str, str]]:
    hits = store.numeric_facts(kinds or ("max", "min", "amount"))
    return sorted((h.fact.doc_id, h.fact.value, h.fact.measure, h.doc_title) for h in hits)


def test_facts_are_replaced_with_their_document_and_deleted_with_it(
    store: FalkorGraphStore,
) -> None:
    a = _with_facts(
        graph("da", ["alpha trust"], ["a"], []), (500.0, "saving", "max"), (90.0, "fee", "amount")
    )
    b = _with_facts(graph("db", ["beta trust"], ["a"], []), (120.0, "saving", "amount"))
    store.upsert_documents([a, b])
    store.upsert_documents([a, b])  # the same graphs again: nothing doubles
    assert _facts(store) == [
        ("da", 90.0, "fee", "DA"),
        ("da", 500.0, "saving", "DA"),
        ("db", 120.0, "saving", "DB"),
    ]
    assert _facts(store, "max") == [("da", 500.0, "saving", "DA")]
    ids = {h.fact.id for h in store.numeric_facts()}
    assert all("@" not in i for i in ids)  # the write's nonce is not part of the fact's id
    changed = _with_facts(graph("da", ["alpha trust"], ["a"], []), (750.0, "saving", "max"))
    store.upsert_documents([changed])
    assert store.counts().documents == 2
    assert _facts(store) == [("da", 750.0, "saving", "DA"), ("db", 120.0, "saving", "DB")]
    assert store.delete_document("da")
    assert _facts(store) == [("db", 120.0, "saving", "DB")]
