"""Limit checks worked out by the tools for a question that asks whether someone is within
stated limits ("Is Ann Example under the Sample Scheme limits?").

The limits come from the threshold catalogue (``numeric_catalogue``), the subject's figures
from the same stored facts; each pair runs through ``assess_threshold`` and becomes a tool
record, a sentence citing both chunks, and a finding. The chunks that state them join the
evidence, so every citation is checked like any other. Offline this is the answer's opening;
with an LLM the same records reach the model as tool results it may cite.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from agents.models import AgenticResult, EvidenceBundle, EvidenceItem, Finding, ToolRecord
from agents.numeric import assess_threshold
from agents.numeric_catalogue import FactSource, LimitPair, limits_about, pair_amounts
from extraction.numbers import Direction
from graph_store.types import ChunkHit

ChunkSource = Callable[[list[str]], list[ChunkHit]]  # chunk ids -> chunks
# Words that make a question a limit check; without one, no check runs (a question about a
# trust's priorities that happens to share words with a stated limit is not one).
_CUES = re.compile(
    r"\b(limits?|thresholds?|eligib\w*|qualif\w*|exceed\w*|maximum|minimum|caps?)\b",
    re.IGNORECASE,
)


@dataclass
class LimitChecks:
    records: list[ToolRecord] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    all_pass: bool = True
    # The chunks the checks cite (the limits and the case's figures), as evidence.
    items: list[EvidenceItem] = field(default_factory=list)
    # A comparison's own lead (the option that wins, cited); limit checks lead with yes / no.
    lead: str = ""

    def answer(self, subject: str) -> str:
        if self.lead:
            return "\n\n".join([self.lead, " ".join(self.sentences)])
        lead = (
            f"Yes: {subject} is within each of the {len(self.records)} stated limits checked."
            if self.all_pass
            else f"No: {subject} is outside at least one of the {len(self.records)} stated "
            "limits checked."
        )
        return " ".join([lead, *self.sentences])


def is_limit_question(question: str) -> bool:
    return bool(_CUES.search(question))


def check_limits(
    question: str, facts: FactSource, chunks: ChunkSource
) -> tuple[LimitChecks, list[EvidenceItem]]:
    """The checks a limit question calls for, and evidence items for the chunks they cite."""
    checks = LimitChecks()
    if not is_limit_question(question):
        return checks, []
    limits = limits_about(facts(("max", "min")), question)
    if not limits:
        return checks, []
    pairs = pair_amounts(limits, facts(("amount",)), question)
    for pair in pairs:
        _run(pair, checks)
    cited = sorted({c for p in pairs for c in (p.limit.fact.chunk_id, p.amount.fact.chunk_id)})
    checks.items = [evidence_item(h) for h in chunks(cited)] if cited else []
    return checks, checks.items


def _run(pair: LimitPair, checks: LimitChecks) -> None:
    limit, amount = pair.limit.fact, pair.amount.fact
    direction: Direction = "max" if limit.kind == "max" else "min"
    result = assess_threshold(amount.value, limit.value, direction, limit.unit, limit.measure)
    result.update(
        {
            "limit_chunk_id": limit.chunk_id,
            "value_chunk_id": amount.chunk_id,
            "limit_source": pair.limit.doc_title,
            "value_source": pair.amount.doc_title,
        }
    )
    checks.records.append(
        ToolRecord(
            name="check_threshold",
            arguments={
                "value": amount.value,
                "measure": limit.measure,
                "entity": limit.entity_name,
            },
            result=result,
        )
    )
    cite = f"[{limit.chunk_id}] [{amount.chunk_id}]"
    checks.sentences.append(f"{result['sentence']} {cite}")
    checks.findings.append(
        Finding(
            text=str(result["sentence"]),
            kind="INFERENCE",
            citations=[limit.chunk_id, amount.chunk_id],
        )
    )
    checks.all_pass = checks.all_pass and bool(result["passes"])


def apply_checks(
    result: AgenticResult, checks: LimitChecks, question: str, reader_lead: bool = False
) -> None:
    """The checks open the answer (they answer the question asked); the quoted evidence
    follows as support, and the tool records join the run's. A comparison's winner replaces
    the reader's short answer (``reader_lead``: the answer's first paragraph is one), which
    was read from one sentence where the tools compared two figures."""
    if checks.lead and reader_lead:
        result.answer = result.answer.partition("\n\n")[2]
    said = checks.answer(subject_of(question, checks))
    # A comparison's lead is a line of its own, as the reader's short answers are.
    joint = "\n\n" if checks.lead else " "
    result.answer = f"{said}{joint}{result.answer}".strip()
    result.findings = checks.findings + result.findings
    result.tool_calls = result.tool_calls + checks.records
    if result.confidence == "LOW":
        # The verdict is the tools' arithmetic on figures and limits both quoted and cited,
        # not a sentence chosen to answer yes or no.
        result.confidence = "MEDIUM"
        result.reason = (
            f"the verdict is worked out by the tools from {len(checks.records)} check(s) of "
            f"figures the documents state; {result.reason}"
        )


def checks_note(checks: LimitChecks) -> str:
    """The limit checks as a model reads them, after the evidence: worked out already by the
    tools, so the model cites them rather than redoing (or skipping) the arithmetic."""
    if not checks.records:
        return ""
    lines = "\n".join(f"- {s}" for s in checks.sentences)
    return (
        "\n\nChecks already worked out by the tools from the cited chunks (use these "
        "results and cite their chunks; do not redo the arithmetic):\n" + lines
    )


def evidence_item(hit: ChunkHit) -> EvidenceItem:
    return EvidenceItem(
        chunk_id=hit.chunk_id,
        doc_id=hit.doc_id,
        doc_title=hit.doc_title,
        text=hit.text,
        score=0.0,
        tag="PRIMARY",
    )


def with_items(evidence: EvidenceBundle, items: list[EvidenceItem]) -> EvidenceBundle:
    have = set(evidence.ids())
    return EvidenceBundle(items=evidence.items + [i for i in items if i.chunk_id not in have])


def subject_of(question: str, checks: LimitChecks) -> str:
    """The figures' subject as the question names it: the value document's title words the
    question uses, else "the case"."""
    for record in checks.records:
        title = str(record.result.get("value_source", ""))
        words = re.findall(r"[A-Z][\w-]+", re.sub(r"['’]s\b", "", question))
        said = [w for w in words if w in title]
        if said:
            return " ".join(said)
    return "the case"


__all__ = [
    "LimitChecks",
    "apply_checks",
    "check_limits",
    "checks_note",
    "evidence_item",
    "is_limit_question",
    "subject_of",
    "with_items",
]
