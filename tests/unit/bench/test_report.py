"""Combined results, the README markdown tables and the chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.report import chart, combine, latency_rows, markdown, recall_rows
from core.errors import InputError


def result(dataset: str, summary: dict[str, dict[str, float]]) -> dict[str, Any]:
    return {
        "dataset": dataset,
        "summary": summary,
        "questions": [],
        "counts": {"questions": 100},
        "corpus": {"passages": 1890},
    }


MUSIQUE = result("musique", {"bm25": {"R@2": 0.4, "R@5": 0.55}, "graph": {"R@2": 0.6, "R@5": 0.8}})
HOTPOT = result("hotpotqa", {"bm25": {"R@2": 0.5, "R@5": 0.7}, "agent": {"R@2": 0.7, "R@5": 0.9}})
LATENCY = {
    "dataset": "2wikimultihopqa",
    "corpus": {"passages": 6119},
    "questions": {"source": "passage-derived", "timed": 100, "warmup": 10},
    "k": 5,
    "presets": {
        "graph": {"p50_ms": 40.0, "p95_ms": 120.0},
        "dense": {"p50_ms": 10.0, "p95_ms": 20.0},
    },
    "ratio_to_dense": {"graph": {"p50": 4.0, "p95": 6.0}, "dense": {"p50": 1.0, "p95": 1.0}},
}


def test_combine_keeps_each_dataset_and_its_summary() -> None:
    doc = combine([MUSIQUE, HOTPOT])
    assert doc["summary"] == {"musique": MUSIQUE["summary"], "hotpotqa": HOTPOT["summary"]}
    assert doc["datasets"]["hotpotqa"] is HOTPOT
    with pytest.raises(InputError, match="twice"):
        combine([MUSIQUE, MUSIQUE])
    with pytest.raises(InputError, match="summary"):
        combine([{"questions": []}])


def test_recall_rows_cover_the_union_of_presets() -> None:
    header, rows = recall_rows(combine([MUSIQUE, HOTPOT]))
    assert header == [
        "preset", "MuSiQue R@2", "MuSiQue R@5", "HotpotQA R@2", "HotpotQA R@5",
    ]  # fmt: skip
    assert rows == [
        ["bm25", "0.400", "0.550", "0.500", "0.700"],
        ["graph", "0.600", "0.800", "–", "–"],
        ["agent", "–", "–", "0.700", "0.900"],
    ]
    # A single dataset's RESULT.json renders the same way.
    assert recall_rows(MUSIQUE)[1][1] == ["graph", "0.600", "0.800"]


def test_markdown_has_both_tables_and_their_settings() -> None:
    text = markdown(combine([MUSIQUE, HOTPOT]), LATENCY)
    assert "| preset | MuSiQue R@2 | MuSiQue R@5 | HotpotQA R@2 | HotpotQA R@5 |" in text
    assert "| bm25 | 0.400 | 0.550 | 0.500 | 0.700 |" in text
    assert "| graph | 40.0 | 120.0 | 4.00 | 6.00 |" in text
    assert "MuSiQue: 100 questions, 1,890 passages" in text
    assert "2Wiki corpus (6,119 passages)" in text
    assert latency_rows(LATENCY)[1][1] == ["dense", "10.0", "20.0", "1.00", "1.00"]


def test_chart_writes_a_png(tmp_path: Path) -> None:
    png = tmp_path / "out" / "multihop.png"
    chart(combine([MUSIQUE, HOTPOT]), png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
