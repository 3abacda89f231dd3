"""Verifier: deterministic citation and quotation checks, plus an LLM support check.

Deterministic: the answer must cite at least one evidence chunk and every finding at least
one; every ``[id]`` in the answer and in the findings must be an evidence chunk; every
quotation (``"..."`` or curly quotes, at least ``quote_min_words`` words) must occur,
whitespace- and case-insensitively, in a chunk its sentence cites (in any evidence chunk when
the sentence cites none); every number the answer states must occur in the evidence or in a
tool result (``number_check``). The LLM check asks whether the cited chunks support each statement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from agents.calls import BudgetExceeded, LLMCaller
from agents.models import EvidenceBundle, EvidenceItem, Finding, ToolRecord, VerifierReport
from agents.number_check import unmatched_numbers
from agents.prompt_files import load
from core.errors import LlmError
from extraction.chunking import split_sentences

CITATION = re.compile(r"\[([A-Za-z0-9][\w\-.:]*)\]")
# The label after a chunk id in the evidence block: "(PRIMARY; Some title)".
_LABEL = re.compile(r"\([A-Z_]+;[^()]*(?:\([^()]*\)[^()]*)*\)")
QUOTE = re.compile(r"[\"“]([^\"“”]+)[\"”]")


class VerifierReply(BaseModel):
    # Problems first: a verdict written after the reasons is less often a reflex "true".
    problems: list[str] = Field(default_factory=list, max_length=8)
    supported: bool


def cited_ids(answer: str, findings: list[Finding]) -> list[str]:
    ids = CITATION.findall(answer)
    for f in findings:
        ids += f.citations + CITATION.findall(f.text)
    return list(dict.fromkeys(ids))


def _squash(text: str) -> str:
    return " ".join(text.replace("’", "'").split()).lower()


def check_deterministic(
    answer: str,
    findings: list[Finding],
    evidence: EvidenceBundle,
    quote_min_words: int,
    tools: Sequence[ToolRecord] = (),
) -> VerifierReport:
    chunks = {i.chunk_id: _squash(i.text) for i in evidence.items}
    unknown = [c for c in cited_ids(answer, findings) if c not in chunks]
    unsupported: list[str] = []
    known = [c for c in cited_ids(answer, findings) if c in chunks]
    uncited = [] if known else ["the answer cites no evidence chunk"]
    uncited += [f.text[:120] for f in findings if not f.citations + CITATION.findall(f.text)]
    units = [(s, CITATION.findall(s)) for s in split_sentences(answer)]
    units += [(f.text, f.citations + CITATION.findall(f.text)) for f in findings]
    for text, cites in units:
        pool = [chunks[c] for c in cites if c in chunks] or list(chunks.values())
        for quote in QUOTE.findall(text):
            if len(quote.split()) < quote_min_words:
                continue  # scare quotes around a word or two are not quotations
            wanted = _squash(quote).strip(" .,;:")
            if not any(wanted in chunk for chunk in pool) and quote not in unsupported:
                unsupported.append(quote)
    for f in findings:
        # A finding copied verbatim from one chunk while citing another is a quotation too.
        cites = [chunks[c] for c in f.citations + CITATION.findall(f.text) if c in chunks]
        plain = _squash(CITATION.sub("", f.text)).strip(" .,;:")
        if not cites or len(plain.split()) < quote_min_words or f.text in unsupported:
            continue
        if not any(plain in c for c in cites) and any(plain in c for c in chunks.values()):
            unsupported.append(f.text)
    empty = states_nothing(answer)
    numbers = unmatched_numbers(answer, evidence, tools)
    return VerifierReport(
        passed=not unknown and not unsupported and not uncited and not empty and not numbers,
        unmatched_numbers=numbers,
        states_nothing=empty,
        unknown_citations=unknown,
        uncited=uncited,
        unsupported_quotes=unsupported,
    )


def states_nothing(answer: str) -> bool:
    """True when, without its citations and the evidence block's "(TAG; title)" labels, the
    answer has no word left."""
    text = _LABEL.sub(" ", CITATION.sub(" ", answer))
    return not re.search(r"\w", text)


def evidence_block(evidence: EvidenceBundle) -> str:
    """Each chunk under "[id] (TAG; title; date; type; subject)": the model can weigh how
    recent a source is and whose view it gives (empty metadata is left out)."""
    return "\n\n".join(
        f"[{i.chunk_id}] ({'; '.join(x for x in (i.tag, i.doc_title, *_meta(i)) if x)})\n{i.text}"
        for i in evidence.items
    )


def _meta(item: EvidenceItem) -> tuple[str, str, str]:
    subject = "" if item.subject == item.doc_title else item.subject
    return item.doc_date, item.doc_type, f"about {subject}" if subject else ""


def check_with_llm(
    question: str, answer: str, evidence: EvidenceBundle, caller: LLMCaller, max_tokens: int
) -> tuple[VerifierReply | None, str | None]:
    """The LLM's verdict, or None and the reason it could not be had."""
    prompt = load("verifier")
    messages = prompt.messages(question=question, evidence=evidence_block(evidence), answer=answer)
    try:
        reply, _ = caller.json(
            "verifier", prompt.ref, messages, VerifierReply, max_tokens=max_tokens
        )
    except (LlmError, BudgetExceeded) as exc:
        return None, f"the LLM check could not run: {exc}"
    return reply, None


def verify(
    question: str,
    answer: str,
    findings: list[Finding],
    evidence: EvidenceBundle,
    caller: LLMCaller | None,
    quote_min_words: int,
    max_tokens: int = 300,
    tools: Sequence[ToolRecord] = (),
) -> tuple[VerifierReport, list[str]]:
    """The combined report and notes about checks that could not run; ``tools`` are the run's
    tool calls, whose numbers an answer may state besides the evidence's."""
    report = check_deterministic(answer, findings, evidence, quote_min_words, tools)
    notes: list[str] = []
    # The model is asked only about an answer that passed the deterministic check: a small
    # model approves nearly anything, and a failed answer is refined or rejected anyway.
    if caller is not None and report.passed:
        reply, note = check_with_llm(question, answer, evidence, caller, max_tokens)
        if reply is None:
            notes.append(note or "the LLM check could not run")
        else:
            report.llm_checked = True
            if not reply.supported:
                report.llm_problems = reply.problems or ["the checker found the answer unsupported"]
            report.passed = report.passed and reply.supported
    return report, notes
