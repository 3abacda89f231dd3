"""``python -m bench.write_batches`` on a small invented corpus: every write batch is timed,
and the batches grow with the store as the ingest settings say (the pipeline's real split)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import write_batches

TEXTS = [
    "Harlow Mill is a water mill on the river Tese built in 1791.",
    "The river Tese flows through Brackwell and joins the Orm.",
    "Brackwell is a market town whose mayor is Ada Venn.",
    "Ada Venn is a politician born in Orm Bay who trained as a miller.",
    "Orm Bay is a fishing village at the mouth of the river Orm.",
    "Tese Bridge crosses the river Tese near Harlow Mill since 1820.",
    "Orm Castle stands above Orm Bay and was rebuilt in 1602.",
    "Ada Venn opened the Brackwell library in 1911.",
    "The Orm flows into the sea at Orm Bay.",
]


def test_each_batch_is_timed_and_batches_grow_with_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KG_INGEST__BATCH_DOCUMENTS", "2")
    monkeypatch.setenv("KG_INGEST__BATCH_GROWTH", "0.5")
    corpus = tmp_path / "corpus.json"
    items = [{"title": f"Page {i}", "text": t} for i, t in enumerate(TEXTS)]
    corpus.write_text(json.dumps(items), encoding="utf-8")
    got = write_batches.run(corpus, 6, [3], tmp_path / "work")
    first, then = got["runs"]
    # 2 a batch while half the store is under 2; into the 6-document store, half of 6.
    assert [b["documents"] for b in first["batches"]] == [2, 2, 2]
    assert [b["documents"] for b in then["batches"]] == [3]
    assert then["store_documents_before"] == 6 and first["failed"] == then["failed"] == 0
    for run in (first, then):
        assert all(b["seconds"] > 0 for b in run["batches"])
        assert run["write_s"] == pytest.approx(sum(b["seconds"] for b in run["batches"]), abs=0.01)
        assert run["ingest_s"] >= run["write_s"]
    assert got["ingest"]["batch_growth"] == 0.5
