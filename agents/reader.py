"""The LLM reader: a small model reads only the question and the best sentences, numbered.

A 1.5B model asked for a long structured synthesis over a dozen whole chunks answered worse
than the offline reader. This answerer gives it what it can use: the best ``reader_sentences``
sentences of the question's ``Reading`` (``Answering.reading``), each under its document's
title, and asks, within the JSON schema of ``ReaderReply`` (grammar-constrained by the
server), for the short answer and the numbers of the sentences that support it. The answer is
then built without the model: the short answer with the supporting chunks' citations, and the
supporting sentences quoted verbatim with theirs, checked by the deterministic verifier.

Confidence comes from the evidence as for the offline answer (``agents.confidence``), capped
by the offline reader's parts; an answer whose words none of its sentences hold is LOW. A
model that answers "unknown" or only repeats the question, or a reply out of shape, falls back
to the extractive answer.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from agents.answerer import Answering, LlmAnswerer
from agents.calls import LLMCaller
from agents.confidence import cap_by_parts, evidence_confidence
from agents.models import AgenticResult, Finding
from agents.prompt_files import load
from agents.verifier import verify
from core.errors import LlmBadReply
from reader.reading import PartAnswer
from reader.sentence_rank import Candidate

# What a model writes when the sentences do not answer: no answer to build on.
NO_ANSWER = {"", "unknown", "none", "not stated", "not known", "n/a", "no answer"}


class ReaderReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Bounded so that a looping small model stops at the grammar: a short answer is a few
    # words, and three sentences are enough to support one.
    answer: str = Field(min_length=1, max_length=120)
    sentences: list[int] = Field(max_length=3)


def numbered(cands: list[Candidate]) -> str:
    """One line per sentence: "1. (Title) sentence"."""
    return "\n".join(
        f"{n}. ({c.passage.doc_title}) {c.sentence}"
        if c.passage.doc_title
        else f"{n}. {c.sentence}"
        for n, c in enumerate(cands, 1)
    )


def _squash(text: str) -> str:
    return " ".join("".join(ch if ch.isalnum() else " " for ch in text.lower()).split())


def holds(sentence: str, answer: str) -> bool:
    """Whether ``sentence`` holds the words of ``answer`` in order ("Oregon" in "... based in
    Millbrook, Oregon.")."""
    return f" {_squash(answer)} " in f" {_squash(sentence)} "


def echoes(question: str, answer: str) -> bool:
    """Whether ``answer`` is only a phrase of ``question`` that does not offer it as a choice:
    "Lilith" to "Lilith is the mother of whom?" repeats the question; "Lilith" to "Is Lilith or
    Adam older?" picks one of its names."""
    if not holds(question, answer) or answer.lower() in {"yes", "no"}:
        return False
    return " or " not in f" {_squash(question)} "


class Reply(Protocol):
    """What ``supporting`` reads of a model's reply (the reader's and the report answerer's)."""

    answer: str
    sentences: list[int]


def supporting(reply: Reply, cands: list[Candidate], most: int = 3) -> list[Candidate]:
    """The sentences the model named (numbers out of range dropped, each once); when it named
    none that exist, the first ``most`` shown sentences that hold its answer, best first
    (``ReaderSettings.fallback_support``)."""
    named = [cands[n - 1] for n in dict.fromkeys(reply.sentences) if 1 <= n <= len(cands)]
    if named:
        return named
    return [c for c in cands if holds(c.sentence, reply.answer)][:most]


def compose(short: str, support: list[Candidate]) -> tuple[str, list[Finding]]:
    """The answer (the short answer with its citations, then the sentences quoted with theirs)
    and the findings: each supporting sentence as a fact of its chunk."""
    ids = list(dict.fromkeys(c.passage.chunk_id for c in support))
    lead = " ".join([short, *(f"[{i}]" for i in ids)])
    body = " ".join(f"{c.sentence} [{c.passage.chunk_id}]" for c in support)
    findings = [
        Finding(text=c.sentence, kind="FACT", citations=[c.passage.chunk_id]) for c in support
    ]
    return (f"{lead}\n\n{body}" if body else lead), findings


class ReaderAnswerer(LlmAnswerer):
    """The model reads; the citations, quotes and checks are deterministic. The plan stays
    deterministic too (``llm_plans``): the small model's time goes to reading."""

    name = "reader"
    llm_plans = False

    def read(self, a: Answering, caller: LLMCaller, result: AgenticResult) -> None:
        run = a.run
        cfg = run.cfg
        cands = a.reading.top(cfg.reader_sentences)
        if not cands:
            raise LlmBadReply("no evidence sentence to read")
        prompt = load("reader")
        messages = prompt.messages(question=run.question, sentences=numbered(cands))
        run.emit("synthesis", {"evidence": len(cands), "examples": 0})
        reply, _ = caller.json(
            "reader", prompt.ref, messages, ReaderReply, max_tokens=cfg.reader_max_tokens
        )
        short = " ".join(reply.answer.split()).strip(" .")
        if short.lower() in NO_ANSWER:
            raise LlmBadReply("the model found no answer in the sentences")
        if echoes(run.question, short):
            raise LlmBadReply("the model's answer only repeats words of the question")
        support = supporting(reply, cands, cfg.reader.fallback_support)
        if not support:
            support = cands[:1]
        result.answer, result.findings = compose(short, support)
        report, notes = verify(
            run.question, result.answer, result.findings, a.evidence, None, cfg.quote_min_words
        )
        run.audit.write("verify", attempt=0, **report.model_dump(), notes=notes)
        run.emit(
            "verify", {"attempt": 0, "passed": report.passed, "problems": len(report.problems())}
        )
        result.verifier = report
        result.warnings += notes + report.problems()
        grounded = short.lower() in {"yes", "no"} or any(holds(c.sentence, short) for c in support)
        result.confidence, result.reason = "LOW", ""
        if not grounded:
            result.reason = "The short answer is not in the sentences it cites."
        elif not report.passed:
            result.reason = "Verification problems remain (see warnings)."
        else:
            result.confidence = "MEDIUM"  # settled against the evidence below

    def settle(self, a: Answering, result: AgenticResult) -> list[PartAnswer]:
        """An answer that passed its checks gets the offline answer's evidence confidence,
        capped by the offline reader's parts; the parts are returned for the report."""
        parts = a.reading.parts
        if result.confidence == "LOW":
            return parts
        level, reason = evidence_confidence(a.gathered, a.evidence, result.findings, a.run.cfg)
        result.confidence, result.reason = cap_by_parts(
            level, reason, parts, a.run.question, a.run.cfg.reader
        )
        return parts
