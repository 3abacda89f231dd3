"""Numeric facts (the threshold catalogue the numeric tools read) on every store: written with
their document, replaced whole when it is written again (the same graph twice included),
deleted with it, read back by kind."""

from __future__ import annotations

from typing import Any

from graph_schema import DocumentGraph, NumericFact
from tests.integration.graph_store.contract.conftest import PREFIX, graph


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


def _facts(store: Any, *kinds: str) -> list[tuple[str, float, str, str]]:
    hits = store.numeric_facts(kinds or ("max", "min", "amount"))
    return sorted((h.fact.doc_id, h.fact.value, h.fact.measure, h.doc_title) for h in hits)


def test_facts_are_replaced_with_their_document_and_deleted_with_it(store: Any) -> None:
    da, db = f"{PREFIX}da", f"{PREFIX}db"
    a = _with_facts(
        graph("da", ["alpha trust"], ["a"], []), (500.0, "saving", "max"), (90.0, "fee", "amount")
    )
    b = _with_facts(graph("db", ["beta trust"], ["a"], []), (120.0, "saving", "amount"))
    store.upsert_documents([a, b])
    store.upsert_documents([a, b])  # the same graphs again: nothing doubles
    assert store.counts().documents == 2
    assert _facts(store) == [
        (da, 90.0, "fee", da.upper()),
        (da, 500.0, "saving", da.upper()),
        (db, 120.0, "saving", db.upper()),
    ]
    assert _facts(store, "max") == [(da, 500.0, "saving", da.upper())]
    ids = {h.fact.id for h in store.numeric_facts()}
    assert all("@" not in i for i in ids)  # a write's nonce is not part of the fact's id
    changed = _with_facts(graph("da", ["alpha trust"], ["a"], []), (750.0, "saving", "max"))
    store.upsert_documents([changed])
    assert _facts(store) == [(da, 750.0, "saving", da.upper()), (db, 120.0, "saving", db.upper())]
    assert store.delete_document(da)
    assert _facts(store) == [(db, 120.0, "saving", db.upper())]
