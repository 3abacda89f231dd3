"""The analyst's report: sources by tier, confidence score in its level's band, rendering."""

from __future__ import annotations

import json

from agents.models import (
    AgenticResult,
    Citation,
    EvidenceBundle,
    EvidenceItem,
    Finding,
    Gap,
    IterationRound,
    Tag,
)
from agents.report import Report, build, render


def _item(chunk: str, doc: str, tag: Tag, date: str = "2026-01-02") -> EvidenceItem:
    return EvidenceItem(
        chunk_id=chunk,
        doc_id=doc,
        doc_title=f"Doc {doc}",
        text="x",
        score=1.0,
        tag=tag,
        doc_date=date,
    )


EVIDENCE = EvidenceBundle(
    items=[
        _item("g1", "dg", "GENERAL"),
        _item("p1", "dp", "PRIMARY"),
        _item("p2", "dp", "GENERAL"),
        _item("s1", "ds", "STRATEGIC", date=""),
    ]
)


def _result(**kw: object) -> AgenticResult:
    base = AgenticResult(
        run_id="r1",
        question="What is planned?",
        answer="A plan [p1].",
        findings=[
            Finding(text="A plan.", kind="FACT", citations=["p1"]),
            Finding(text="So B.", kind="INFERENCE", citations=["p1", "s1"]),
        ],
        citations=[Citation(chunk_id="p1", document_title="Doc dp")],
        confidence="MEDIUM",
        reason="some reason",
        rounds=[IterationRound(iteration=1, queries=["q1", "q2"], retrieved=5, new_evidence=5)],
    )
    return base.model_copy(update=kw)


def test_sources_grouped_by_tier_with_dates_and_chunk_counts() -> None:
    report = build(_result(), EVIDENCE)
    lines = [s.line() for s in report.sources]
    assert lines == [
        "[PRIMARY] Doc dp — 2026-01-02 (2 chunks)",
        "[STRATEGIC] Doc ds (1 chunk)",
        "[GENERAL] Doc dg — 2026-01-02 (1 chunk)",
    ]
    assert report.epistemic == {"FACT": 1, "INFERENCE": 1, "ASSUMPTION": 0}
    cited = report.findings[1].citations
    assert [(c.chunk_id, c.document_title) for c in cited] == [("p1", "Doc dp"), ("s1", "Doc ds")]


def test_confidence_score_lies_in_its_level_band_and_gaps_lower_it() -> None:
    medium = build(_result(), EVIDENCE).confidence
    assert medium.level == "MEDIUM" and 40 <= medium.score <= 69
    gap = Gap(category="recency", severity="high", description="old", query="q")
    worse = build(_result(gaps=[gap]), EVIDENCE).confidence
    assert worse.score < medium.score and "serious gap" in worse.reason
    low = build(_result(confidence="LOW"), EVIDENCE).confidence
    assert 0 <= low.score <= 39


def test_text_markdown_and_json_renderings() -> None:
    gap = Gap(category="missing_fact", severity="high", description="no figure", query="how")
    report = build(_result(gaps=[gap], recommendations=["Ask this?"]), EVIDENCE)
    text = render(report, "text")
    for part in (
        "SOURCES CONSULTED",
        "[PRIMARY] Doc dp — 2026-01-02 (2 chunks)",
        "[missing_fact, high] no figure (query: how)",
        "MEDIUM (",
        "FACT 1, INFERENCE 1, ASSUMPTION 0",
        "round 1: 2 queries (q1; q2), 5 retrieved, 5 new",
        "- Ask this?",
    ):
        assert part in text
    markdown = render(report, "markdown")
    assert markdown.startswith("# What is planned?") and "## Gaps" in markdown
    assert Report.model_validate(json.loads(render(report, "json"))) == report


def test_text_and_markdown_number_citations_and_list_them_as_references() -> None:
    # The JSON keeps chunk ids; a reader of the text or markdown sees [1], [2] and a list.
    report = build(_result(answer="A plan [p1]; an aside [x9]."), EVIDENCE)
    markdown = render(report, "markdown")
    assert "A plan [1]; an aside [x9]." in markdown  # an id the evidence lacks stays as written
    assert "- **INFERENCE** So B. [1] [2]" in markdown
    refs = markdown.split("## References\n", 1)[1].splitlines()
    assert refs[:2] == ["- [1] Doc dp (2026-01-02), chunk p1", "- [2] Doc ds, chunk s1"]
    text = render(report, "text")
    assert "REFERENCES\n[1] Doc dp (2026-01-02), chunk p1" in text
    assert "[p1]" in render(report, "json")
