"""Both stores side by side: recall differences, and ingest only from runs that built."""

from __future__ import annotations

from typing import Any

from bench.stores_report import gather, markdown


def _multihop(kind: str, r2: float, reused: bool, seconds: float) -> dict[str, Any]:
    return {
        "dataset": "musique",
        "summary": {"graph": {"R@2": r2, "R@5": 0.75}},
        "counts": {"questions": 100, "store": {"documents": 10}},
        "timings": {"per_preset": {"graph": {"mean_ms": 5.0}}},
        "corpus": {
            "store_kind": kind,
            "store_reused": reused,
            "ingest_s": seconds,
            "passages": 10,
        },
        "environment": {"measured_at": "t", "git_commit": "c"},
    }


def test_differences_are_neo4j_minus_embedded_and_reused_stores_report_no_ingest() -> None:
    doc = gather(
        [_multihop("embedded", 0.611, True, 163.7), _multihop("neo4j", 0.606, False, 5.0)],
        [],
        [],
    )
    sets = doc["multihop"]["musique"]
    assert sets["neo4j_minus_embedded"] == {"graph": {"R@2": -0.005, "R@5": 0.0}}
    # The embedded store was reused: its marker's time is an older build's.
    assert doc["ingest"] == {
        "musique": {"neo4j": {"passages": 10, "seconds": 5.0, "passages_per_s": 2.0}}
    }
    assert "| musique | graph | neo4j | 0.606 | 0.750 |" in markdown(doc)
