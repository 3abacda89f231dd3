"""The answerer seam: what reads a question's admitted evidence and writes the answer.

``Answering`` is what every answerer is given once the evidence loop is done: the run's
context, what the loop gathered, the admitted evidence (ranked and in reading order) and a
limit question's checks. An ``Answerer`` fills in the result's answer, findings, confidence
and verifier report and returns the offline reader's parts of the question (the report's
missing-fact gaps read them). Three adapters:

- ``ExtractiveAnswerer``: the offline reader, quoting the evidence (no model);
- ``agents.synthesis_answer.SynthesisAnswerer``: the model writes the cited answer, findings
  and confidence, with tools, checked by the verifier and refined once;
- ``agents.reader.ReaderAnswerer``: the model names the short answer and the numbers of the
  sentences that support it; citations and quotes are built from those sentences.

The two model answerers share ``LlmAnswerer``: a failed model step (no reply, a reply out of
shape, the token budget spent) falls back to the extractive answer, said in the result, and a
model's HIGH stands only where the offline checks would allow HIGH too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from agents.budget import Admitted
from agents.calls import BudgetExceeded, LLMCaller
from agents.confidence import cap_by_parts, evidence_confidence
from agents.config import AgentSettings
from agents.loop import Gathered, RunContext
from agents.models import AgenticResult, EvidenceBundle, Finding
from agents.numeric_answer import LimitChecks, apply_checks
from agents.verifier import verify
from core.errors import LlmError
from graph_store.types import ChunkHit
from reader.answer_types import spacy_ner
from reader.extractive import extractive_answer
from reader.reading import NO_LLM_NOTE, PartAnswer, Reading
from reader.settings import ReaderSettings


@dataclass(frozen=True)
class Answering:
    """What an answerer reads: ``evidence`` is the admitted evidence, ranked, with the limit
    checks' items; ``admitted.reading`` is the same in reading order."""

    run: RunContext
    gathered: Gathered
    admitted: Admitted
    evidence: EvidenceBundle
    checks: LimitChecks | None = None

    @cached_property
    def reading(self) -> Reading:
        """The offline reader's ``Reading`` of the question over ``evidence``, computed on
        first use and shared: the extractive answer, the LLM reader's sentences and the
        confidence step's parts all come from this one."""
        return extractive(self.run, self.evidence)


class Answerer(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def llm_plans(self) -> bool:
        """Whether the run's planner may call the model (else it stays deterministic)."""
        ...

    def answer(self, a: Answering, result: AgenticResult) -> list[PartAnswer]: ...


class ExtractiveAnswerer:
    """The extractive answer, verified deterministically. ``no_llm``: no model was configured
    (said in the result); False when it stands in for a model answerer that failed."""

    name = "extractive"
    llm_plans = True

    def __init__(self, no_llm: bool = True) -> None:
        self._no_llm = no_llm

    def answer(self, a: Answering, result: AgenticResult) -> list[PartAnswer]:
        cfg, question = a.run.cfg, a.run.question
        ex = a.reading
        result.answer = ex.answer
        # Quoted evidence sentences are facts as stated; nothing is inferred offline.
        result.findings = [Finding(text=s, kind="FACT", citations=[c]) for s, c in ex.sentences]
        if self._no_llm:
            result.note = NO_LLM_NOTE
            result.warnings.insert(0, NO_LLM_NOTE)
        level, reason = evidence_confidence(a.gathered, a.evidence, result.findings, cfg)
        result.confidence, result.reason = cap_by_parts(
            level, reason, ex.parts, question, cfg.reader
        )
        if a.checks is not None and a.checks.records:
            lead = any(p.phrase for p in ex.parts)
            apply_checks(result, a.checks, question, reader_lead=lead)
        report, _ = verify(
            question,
            result.answer,
            result.findings,
            a.evidence,
            None,
            cfg.quote_min_words,
            tools=result.tool_calls,
        )
        result.verifier = report
        result.warnings += report.problems()
        if result.mode == "llm-failed" and result.confidence == "HIGH":
            # Quoted sentences chosen without the model answer less of the question.
            result.confidence = "MEDIUM"
            result.reason += "; capped at MEDIUM because the LLM step failed"
        return ex.parts


class LlmAnswerer:
    """A model answerer: ``read`` fills in the result; a failed model step falls back to the
    extractive answer; ``settle`` then gives the confidence its last word."""

    name = "llm"
    llm_plans = True

    def answer(self, a: Answering, result: AgenticResult) -> list[PartAnswer]:
        caller = a.run.caller
        if caller is None:
            return ExtractiveAnswerer().answer(a, result)
        try:
            self.read(a, caller, result)
        except (LlmError, BudgetExceeded) as exc:
            result.mode = "llm-failed"
            result.note = (
                f"The LLM step failed ({exc}); this answer is extractive, quoted from the evidence."
            )
            result.warnings.append(result.note)
            a.run.audit.write("fallback", step=self.name, error=str(exc))
            return ExtractiveAnswerer(no_llm=False).answer(a, result)
        return self.settle(a, result)

    def read(self, a: Answering, caller: LLMCaller, result: AgenticResult) -> None:
        raise NotImplementedError

    def settle(self, a: Answering, result: AgenticResult) -> list[PartAnswer]:
        """The model's HIGH stands only where the offline checks would allow HIGH too (the
        asked-for fact found, of the asked type, in a well-matched sentence; no chain through
        another subject). The 1.5B model called all of 10 HotpotQA answers HIGH, 5 of them
        wrong. Returns the offline reader's parts (for the report's missing-fact gaps)."""
        parts = a.reading.parts
        if result.confidence != "HIGH":
            return parts
        level, why = cap_by_parts("HIGH", "", parts, a.run.question, a.run.cfg.reader)
        if level != "HIGH":
            result.confidence = "MEDIUM"
            result.reason = f"{result.reason} Capped at MEDIUM: {why.lstrip('; ')}.".strip()
        return parts


def extractive(run: RunContext, evidence: EvidenceBundle) -> Reading:
    """The offline reader's answer to the run's question over ``evidence``."""
    cfg, store = run.cfg, run.container.store
    strategic = [i for i in evidence.items if i.tag == "STRATEGIC"][: cfg.extractive_graph_lines]

    def siblings(chunk_id: str) -> list[ChunkHit]:
        # Every chunk of the document, in order (ids carry the chunk index): a list the
        # question asks for is quoted whole even when retrieval found only part of it.
        hits = store.get_chunks([chunk_id])
        return store.document_chunks(hits[0].doc_id)[: cfg.max_evidence] if hits else []

    return extractive_answer(
        run.question,
        evidence.items,
        run.container.embedder,
        options=extractive_options(cfg),
        graph_context=[(i, i.path) for i in strategic],
        siblings=siblings,
        ner=spacy_ner(cfg.answer_spacy_model),
        about={i.chunk_id for i in evidence.items if i.tag == "PRIMARY"},
    )


def extractive_options(cfg: AgentSettings) -> ReaderSettings:
    return cfg.reader
