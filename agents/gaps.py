"""Typed gaps in the evidence: what is missing, how much it matters, the query that closes it.

- coverage: fewer than ``gap_min_sources`` documents, or a named entity no evidence mentions;
- source_dominance: one document holds more than ``gap_dominance_share`` of the evidence;
- recency: the question has a time horizon ("the latest", "next 12 months", "2026/27") and no
  evidence is dated within it (document dates; undated evidence is not judged);
- subtask: a planned sub-task whose retrieval found nothing about its focus;
- missing_fact: the asked-for fact (a number, a date, a name, a list) is not in the evidence,
  as the offline reader judged it (question kind from ``reader.question``, candidates of that
  kind by spaCy NER in the evidence sentences).

The critique turns the gaps' queries into the next round's sub-tasks; synthesis is told the
open gaps; the report lists them and turns them into next questions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import date, timedelta

from agents.config import AgentSettings
from agents.models import EvidenceItem, Gap, LinkedEntity, SubTask
from reader.question import STOPWORDS, words
from reader.reading import PartAnswer

_YEAR_SPAN = re.compile(r"\b((?:19|20)\d{2})\s*[/\-–]\s*(\d{2}|(?:19|20)\d{2})\b")
_YEAR = re.compile(r"\b((?:19|20)\d{2})\b")
# English words that put a question in the present or the near future.
_NOW = re.compile(
    r"\b(latest|current(?:ly)?|now|recent(?:ly)?|today|this year|upcoming|coming (?:year|months?)"
    r"|next \d+ (?:months?|years?)|next (?:year|months?|few (?:months|years)))\b",
    re.IGNORECASE,
)
_KIND_WORD = {
    "NUMBER": "figure",
    "DATE": "date",
    "PERSON": "person",
    "PLACE": "place",
    "LIST": "list",
    "YESNO": "yes/no verdict",
    "THING": "answer",
}


def horizon(question: str, settings: AgentSettings) -> tuple[str, str] | None:
    """The earliest document date the question wants (ISO), and why; None when it sets no
    time horizon."""
    if m := _YEAR_SPAN.search(question):
        year = int(m.group(1))
        return f"{year - 1}-01-01", f"the question asks about {m.group(0)}"
    if m := _NOW.search(question):
        start = _reference(settings) - timedelta(days=settings.recency_max_age_days)
        return start.isoformat(), f'the question asks about "{m.group(0)}"'
    if m := _YEAR.search(question):
        year = int(m.group(1))
        return f"{year - 1}-01-01", f"the question asks about {year}"
    return None


def _reference(settings: AgentSettings) -> date:
    if settings.reference_date:
        return date.fromisoformat(settings.reference_date)
    return date.today()


def evidence_gaps(
    question: str,
    evidence: Sequence[EvidenceItem],
    linked: Sequence[LinkedEntity],
    mentioned: set[str],
    settings: AgentSettings,
    subject_query: Callable[[str], str],
) -> list[Gap]:
    """Coverage, dominance and recency gaps of the evidence a synthesis would read.
    ``mentioned``: entity ids some evidence mentions; ``subject_query(name)``: the focused
    query about one entity for this question."""
    gaps: list[Gap] = []
    subject = linked[0].name if linked else ""
    for e in linked:
        if e.entity_id not in mentioned:
            gaps.append(
                Gap(
                    category="coverage",
                    severity="high",
                    description=f"no evidence mentions {e.name}",
                    query=subject_query(e.name),
                )
            )
    docs = Counter(i.doc_id for i in evidence)
    if len(docs) < settings.gap_min_sources:
        gaps.append(
            Gap(
                category="coverage",
                severity="high" if not docs else "medium",
                description=(
                    "no evidence was found"
                    if not docs
                    else f"only {len(docs)} source document(s); "
                    f"{settings.gap_min_sources} wanted to check one against another"
                ),
                query=_topic(question) or question,
            )
        )
    if len(evidence) >= 2 and docs:
        top_doc, count = docs.most_common(1)[0]
        share = count / len(evidence)
        if len(docs) > 1 and share > settings.gap_dominance_share:
            title = next(i.doc_title for i in evidence if i.doc_id == top_doc)
            gaps.append(
                Gap(
                    category="source_dominance",
                    severity="medium",
                    description=f"{share:.0%} of the evidence comes from one document, {title!r}",
                    query=_beyond(question, title, subject),
                )
            )
    gaps += _recency(question, evidence, settings)
    return gaps


def _recency(question: str, evidence: Sequence[EvidenceItem], settings: AgentSettings) -> list[Gap]:
    wanted = horizon(question, settings)
    dated = sorted((i.doc_date for i in evidence if i.doc_date), reverse=True)
    if wanted is None or not dated:
        return []
    start, why = wanted
    if dated[0][: len(start)] >= start[: len(dated[0])]:
        return []
    return [
        Gap(
            category="recency",
            severity="high",
            description=f"{why}, but the newest evidence is dated {dated[0]} (before {start})",
            query=question,
        )
    ]


def subtask_gaps(tasks: Sequence[SubTask], found: Callable[[SubTask], bool]) -> list[Gap]:
    """Planned sub-tasks (not expansion queries) whose retrieval found nothing on their focus."""
    return [
        Gap(
            category="subtask",
            severity="medium",
            description=f"sub-task without evidence: {t.description}",
            query=t.query,
        )
        for t in tasks
        if t.origin in ("planner", "question") and not found(t)
    ]


def fact_gaps(parts: Sequence[PartAnswer]) -> list[Gap]:
    """Parts of the question whose asked-for fact the evidence does not state."""
    missing = [p for p in parts if not p.found and p.kind != "YESNO"]
    return [
        Gap(
            category="missing_fact",
            severity="high" if len(missing) == len(parts) else "medium",
            description=f'no {_KIND_WORD[p.kind]} found in the evidence for "{p.text}"',
            query=p.text,
        )
        for p in missing
    ]


def next_questions(gaps: Sequence[Gap]) -> list[str]:
    """Offline recommendations: each open gap as the question that would close it."""
    out: list[str] = []
    for g in gaps:
        q = {
            "missing_fact": f"Which document states {_clause(g.query)}?",
            "recency": f"Is there a more recent source on: {g.query}",
            "source_dominance": f"What do other sources say about {g.query}?",
            "coverage": f"What other sources cover {g.query}?",
            "subtask": f"What does the corpus say about {g.query}?",
        }[g.category]
        if q not in out:
            out.append(q)
    return out


def _clause(text: str) -> str:
    text = text.strip().rstrip("?")
    return f'"{text}"'


def _topic(question: str) -> str:
    """The question's content words: a broader query than the question itself."""
    return " ".join(w for w in words(question) if w.lower() not in STOPWORDS)


def _beyond(question: str, title: str, subject: str) -> str:
    """A query for sources other than ``title``: the subject with the question's words that
    the dominant title does not already hold, or the subject's name alone."""
    held = {w.lower() for w in words(title)}
    rest = [w for w in words(_topic(question)) if w.lower() not in held]
    return " ".join([subject, *rest]).strip() or _topic(question) or question


def gaps_note(gaps: Sequence[Gap]) -> str:
    """The open gaps as synthesis reads them, after the evidence: the answer must say what
    the evidence lacks rather than fill it in."""
    if not gaps:
        return ""
    lines = "\n".join(f"- {g.category} ({g.severity}): {g.description}" for g in gaps)
    return (
        "\n\nGaps in this evidence (say in the answer what is missing; do not fill it in):\n"
        + lines
    )
