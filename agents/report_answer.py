"""The report answerer: the offline report first, the small model adds a lead and next questions.

A 1.5B model asked for the whole analyst's answer (synthesis over a dozen chunks, with
findings, confidence and tools) scored 0.00 key points where the offline report scored 1.00
(bench/results/analyst-llm-subset.json): it said "the documents do not say" of evidence that
did. This answerer gives the model less and simpler work. The offline reader writes the answer,
its findings, confidence and limit checks (``ExtractiveAnswerer``), over the same evidence as
offline (the plan stays deterministic: ``llm_plans`` False). The model then reads the question
and the offline ranking's best sentences, numbered, as the reader answerer does, and names, in
one grammar-constrained reply, the short answer, the sentences that support it and up to three
next questions for the analyst. What it adds never removes anything:

- the short answer leads the offline answer (cited by the sentences the model named) only when
  those sentences hold its words (or it is yes / no), the offline answer is not LOW (a question
  the documents cannot answer stays answered as not found) and the deterministic verifier
  passes with it (no number the evidence and the tools do not hold);
- its next questions become the report's recommendations;
- a reply out of shape, or no reply, leaves the offline report as it is (``mode`` says so).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from agents.answerer import Answering, ExtractiveAnswerer
from agents.calls import BudgetExceeded, LLMCaller
from agents.closing import decided_by_tools, not_found, off_subject, unmentioned
from agents.models import AgenticResult, Finding
from agents.prompt_files import load
from agents.reader import NO_ANSWER, echoes, holds, numbered, supporting
from agents.verifier import verify
from core.errors import LlmError
from reader.reading import PartAnswer
from reader.sentence_rank import Candidate


class ReportReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Bounded so that a looping small model stops at the grammar: a lead is one short
    # sentence, three sentences support it, three questions are enough to go on with.
    answer: str = Field(min_length=1, max_length=200)
    sentences: list[int] = Field(max_length=3)
    next_questions: list[str] = Field(default_factory=list, max_length=3)


class ReportAnswerer:
    name = "report"
    llm_plans = False  # the model's time goes to reading; the evidence is the offline one

    def answer(self, a: Answering, result: AgenticResult) -> list[PartAnswer]:
        parts = ExtractiveAnswerer(no_llm=False).answer(a, result)
        caller = a.run.caller
        if caller is None:
            return parts
        # What closing will say unanswered gets no lead: a figure for a measure no evidence
        # names would read as the answer above "the documents do not answer".
        unanswered, _ = not_found(result, a.evidence, parts)
        # Nor does an answer closing will put at LOW for being read from passages that never
        # mention what the question names: the model read the same sentences.
        if not unanswered and not decided_by_tools(result):
            unanswered = bool(off_subject(result.question, a.gathered, a.evidence, parts))
        try:
            self._add(a, caller, result, unanswered)
        except (LlmError, BudgetExceeded) as exc:
            result.mode = "llm-failed"
            result.note = f"The LLM step failed ({exc}); this is the offline report."
            result.warnings.append(result.note)
            a.run.audit.write("fallback", step=self.name, error=str(exc))
        return parts

    def _add(
        self, a: Answering, caller: LLMCaller, result: AgenticResult, unanswered: bool
    ) -> None:
        run, cfg = a.run, a.run.cfg
        cands = a.reading.top(cfg.reader_sentences)
        if not cands:
            return
        prompt = load("report")
        messages = prompt.messages(question=run.question, sentences=numbered(cands))
        run.emit("synthesis", {"evidence": len(cands), "examples": 0})
        reply, _ = caller.json(
            "report", prompt.ref, messages, ReportReply, max_tokens=cfg.reader_max_tokens * 2
        )
        asked = " ".join(run.question.lower().split())
        result.recommendations = [
            q.strip()
            for q in reply.next_questions
            if q.strip().endswith("?") and " ".join(q.lower().split()) != asked
        ]
        short = " ".join(reply.answer.split()).strip(" .")
        level = result.confidence if cfg.report_lead_needs_confidence else "MEDIUM"
        why = _refused(short, run.question, "LOW" if unanswered else level)
        if not why and a.checks is not None and a.checks.records:
            # A limit check or comparison the tools worked out leads: numbers are the tools'
            # arithmetic on stated figures, never the model's.
            why = "the tools worked the answer out from the stated figures"
        support = supporting(reply, cands, cfg.reader.fallback_support) if not why else []
        if not why and not _grounded(short, support) and _grounded(short, cands):
            # A list's items may stand in more sentences than the model named.
            items = _ITEMS.split(short)
            support += [
                c
                for c in cands
                if c not in support and any(holds(c.sentence, i) for i in items if i.strip())
            ]
        if not why and not _grounded(short, support):
            why = "its words are not in the sentences it cites"
        ids = list(dict.fromkeys(c.passage.chunk_id for c in support))
        elsewhere = [] if why else unmentioned(run.question, a.gathered, a.evidence, ids)
        if elsewhere:
            names = ", ".join(f'"{n}"' for n in elsewhere)
            why = f"the sentences it cites never mention {names}"
        if why:
            result.warnings.append(f"The model's short answer ({short!r}) was left out: {why}.")
            run.audit.write("report_lead", kept=False, answer=short, why=why)
            return
        lead = " ".join([short + ".", *(f"[{i}]" for i in ids)])
        answer = f"{lead}\n\n{result.answer}"
        findings = list(result.findings)
        known = {(f.text, tuple(f.citations)) for f in findings}
        for c in support:
            if (c.sentence, (c.passage.chunk_id,)) not in known:
                findings.append(
                    Finding(text=c.sentence, kind="FACT", citations=[c.passage.chunk_id])
                )
        report, _ = verify(
            run.question,
            answer,
            findings,
            a.evidence,
            None,
            cfg.quote_min_words,
            tools=result.tool_calls,
        )
        if not report.passed:
            why = "; ".join(report.problems()) or "verification failed"
            result.warnings.append(f"The model's short answer ({short!r}) was left out: {why}.")
            run.audit.write("report_lead", kept=False, answer=short, why=why)
            return
        result.answer, result.findings, result.verifier = answer, findings, report
        run.audit.write("report_lead", kept=True, answer=short, sentences=ids)


def _refused(short: str, question: str, confidence: str) -> str:
    """Why the model's short answer cannot lead the report ('' when it can)."""
    if short.lower() in NO_ANSWER:
        return "the model found no answer in the sentences"
    if echoes(question, short):
        return "it only repeats words of the question"
    if confidence == "LOW":
        return "the offline report found no answer the evidence supports"
    return ""


_ITEMS = re.compile(r"\s*(?:,|;|\band\b)\s*")


def _grounded(short: str, support: list[Candidate]) -> bool:
    """Yes / no, or the answer's words in one cited sentence, or, for a list ("A, B and C"),
    each item's words in one of them."""
    if short.lower() in {"yes", "no"} or any(holds(c.sentence, short) for c in support):
        return True
    items = [i for i in _ITEMS.split(short) if i.strip()]
    return len(items) > 1 and all(any(holds(c.sentence, i) for c in support) for i in items)
