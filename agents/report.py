"""The analyst's report: what was asked, what was found and how sure, from which sources, what
is missing, how the evidence was gathered, and what to ask next.

Built last from the run's result and the evidence it read; rendered as text or Markdown by
``render`` (``kg ask --format``) and served as JSON (``kg ask --format json``, ``/v1/ask``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

from pydantic import BaseModel, Field

from agents.models import (
    LEVELS,
    AgenticResult,
    EvidenceBundle,
    EvidenceItem,
    FindingKind,
    Gap,
    IterationRound,
    Level,
    Tag,
)
from agents.verifier import CITATION

Format = Literal["text", "markdown", "json"]
TIERS: tuple[Tag, ...] = ("PRIMARY", "STRATEGIC", "GENERAL")
# The 0-100 score's band per level: the level decides the band, the evidence the place in it.
_BANDS: dict[Level, tuple[int, int]] = {"LOW": (5, 39), "MEDIUM": (40, 69), "HIGH": (70, 95)}
# Points a high-severity gap takes off the score, within its band.
_GAP_COST = 8


class ReportCitation(BaseModel):
    chunk_id: str
    document_title: str


class ReportFinding(BaseModel):
    text: str
    kind: FindingKind
    citations: list[ReportCitation] = Field(default_factory=list)


class Source(BaseModel):
    tier: Tag
    title: str
    date: str = ""
    doc_type: str = ""
    subject: str = ""
    chunks: int = 0
    chunk_ids: list[str] = Field(default_factory=list)

    def line(self) -> str:
        when = f" — {self.date}" if self.date else ""
        return f"[{self.tier}] {self.title}{when} ({self.chunks} chunk{'s' * (self.chunks != 1)})"


class Confidence(BaseModel):
    level: Level
    score: int = Field(ge=0, le=100)
    reason: str


class Report(BaseModel):
    question: str
    answer: str
    findings: list[ReportFinding] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)  # tier order, then relevance
    gaps: list[Gap] = Field(default_factory=list)
    confidence: Confidence
    epistemic: dict[str, int] = Field(default_factory=dict)  # findings per tag
    iterations: list[IterationRound] = Field(default_factory=list)
    recommendations: list[str] = Field(default_factory=list)
    mode: str = "offline"
    note: str = ""


def build(result: AgenticResult, evidence: EvidenceBundle) -> Report:
    known = evidence.by_id()
    findings = [
        ReportFinding(
            text=f.text,
            kind=f.kind,
            citations=[
                ReportCitation(chunk_id=c, document_title=known[c].doc_title if c in known else "")
                for c in f.citations
            ],
        )
        for f in result.findings
    ]
    counts: Counter[str] = Counter(f.kind for f in result.findings)
    return Report(
        question=result.question,
        answer=result.answer,
        findings=findings,
        sources=sources(evidence),
        gaps=result.gaps,
        confidence=confidence(result, evidence),
        epistemic={k: counts.get(k, 0) for k in ("FACT", "INFERENCE", "ASSUMPTION")},
        iterations=result.rounds,
        recommendations=result.recommendations,
        mode=result.mode,
        note=result.note,
    )


def sources(evidence: EvidenceBundle) -> list[Source]:
    """One line per document read, under the best tier any of its chunks has."""
    by_doc: dict[str, list[EvidenceItem]] = {}
    for item in evidence.items:
        by_doc.setdefault(item.doc_id, []).append(item)
    out = []
    for items in by_doc.values():
        first = items[0]
        tier = min((i.tag for i in items), key=TIERS.index)
        out.append(
            Source(
                tier=tier,
                title=first.doc_title,
                date=first.doc_date,
                doc_type=first.doc_type,
                subject=first.subject,
                chunks=len(items),
                chunk_ids=[i.chunk_id for i in items],
            )
        )
    out.sort(key=lambda s: TIERS.index(s.tier))  # stable: relevance order within a tier
    return out


def confidence(result: AgenticResult, evidence: EvidenceBundle) -> Confidence:
    """The level as decided by the loop, and a 0-100 score inside the level's band: higher
    with more of the cited evidence about the subject (PRIMARY / STRATEGIC) and more sources,
    lower for each high-severity gap."""
    low, high = _BANDS[result.confidence]
    known = evidence.by_id()
    cited = [known[c.chunk_id] for c in result.citations if c.chunk_id in known]
    strong = sum(i.tag != "GENERAL" for i in cited) / len(cited) if cited else 0.0
    docs = len({i.doc_id for i in cited})
    serious = sum(g.severity == "high" for g in result.gaps)
    place = 0.6 * strong + 0.4 * min(1.0, docs / 3)
    score = round(low + (high - low) * place) - _GAP_COST * serious
    score = max(low, min(high, score))
    why = result.reason or "no reason given"
    if serious:
        why += f"; {serious} serious gap(s) in the evidence"
    return Confidence(level=result.confidence, score=score, reason=why)


def render(report: Report, fmt: Format) -> str:
    if fmt == "json":
        return report.model_dump_json(indent=2)
    md = fmt == "markdown"

    def head(text: str) -> str:
        return f"## {text}" if md else f"{text.upper()}"

    refs = _References(report)
    answer = refs.number(report.answer)
    lines = [f"# {report.question}" if md else f"Q: {report.question}", "", answer, ""]
    if report.findings:
        lines.append(head("Findings"))
        for f in report.findings:
            cites = " ".join(f"[{refs.of(c.chunk_id)}]" for c in f.citations)
            lines.append(
                f"- **{f.kind}** {f.text} {cites}" if md else f"- {f.kind}: {f.text} {cites}"
            )
        lines.append("")
    lines.append(head("Sources consulted"))
    for tier in TIERS:
        for s in (s for s in report.sources if s.tier == tier):
            lines.append(f"- {s.line()}")
    lines += ["", head("Gaps")]
    lines += [
        f"- [{g.category}, {g.severity}] {g.description}"
        + (f" (query: {g.query})" if g.query else "")
        for g in report.gaps
    ] or ["- none found"]
    c = report.confidence
    lines += ["", head("Confidence"), f"{c.level} ({c.score}/100): {c.reason}", ""]
    lines.append(head("Epistemic summary"))
    lines.append(", ".join(f"{k} {v}" for k, v in report.epistemic.items()))
    lines += ["", head("Iteration log")]
    for r in report.iterations:
        failed = f"; failed: {'; '.join(r.failed)}" if r.failed else ""
        stop = f"; stopped: {r.stop_reason}" if r.stop_reason else ""
        asked = f"{len(r.queries)} quer{'y' if len(r.queries) == 1 else 'ies'}"
        lines.append(
            f"- round {r.iteration}: {asked} ({'; '.join(r.queries)}), "
            f"{r.retrieved} retrieved, {r.new_evidence} new{failed}{stop}"
        )
    if report.recommendations:
        lines += ["", head("Recommendations / next questions")]
        lines += [f"- {q}" for q in report.recommendations]
    if refs.order:
        lines += ["", head("References")]
        lines += [f"{'- ' if md else ''}[{n}] {line}" for n, line in refs.lines()]
    if report.note:
        lines += ["", report.note]
    return "\n".join(lines).rstrip() + "\n"


class _References:
    """Citations numbered in order of first use: a reader of the text or markdown report
    sees "[1]" where the JSON has a chunk id, and the references list each number's
    document, date and chunk id (for the audit trail)."""

    def __init__(self, report: Report) -> None:
        self.order: list[str] = []
        self._docs: dict[str, tuple[str, str]] = {}
        for s in report.sources:
            for chunk in s.chunk_ids:
                self._docs[chunk] = (s.title, s.date)
        for f in report.findings:
            for cited in f.citations:
                self._docs.setdefault(cited.chunk_id, (cited.document_title, ""))

    def of(self, chunk_id: str) -> int:
        if chunk_id not in self.order:
            self.order.append(chunk_id)
        return self.order.index(chunk_id) + 1

    def number(self, text: str) -> str:
        def mark(m: re.Match[str]) -> str:
            known = m.group(1) in self._docs
            return f"[{self.of(m.group(1))}]" if known else m.group(0)

        return CITATION.sub(mark, text)

    def lines(self) -> list[tuple[int, str]]:
        out = []
        for n, c in enumerate(self.order, 1):
            title, date = self._docs.get(c, ("", ""))
            when = f" ({date})" if date else ""
            out.append((n, f"{title or 'unknown document'}{when}, chunk {c}"))
        return out


def level_at_most(level: Level, cap: Level) -> Level:
    return LEVELS[min(LEVELS.index(level), LEVELS.index(cap))]
