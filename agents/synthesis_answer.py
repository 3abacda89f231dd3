"""The synthesis answerer: the model writes the cited answer, its findings and confidence.

It reads the admitted evidence in its packed order (strongest documents at both ends; with
``synthesis_sentences``, only the offline ranking's best sentences of each chunk), the closest
few-shot examples and the critique's open gaps, may call the numeric tools, and is checked by
the verifier (with the model), refined once on the problems found (``agents.synthesis``).
"""

from __future__ import annotations

from agents.answerer import Answering, LlmAnswerer, extractive_options
from agents.calls import BudgetExceeded, LLMCaller
from agents.fewshot import default_examples, examples_for, render
from agents.focus import focused
from agents.gaps import gaps_note
from agents.models import AgenticResult, ToolRecord, VerifierReport
from agents.numeric_answer import checks_note, with_items
from agents.synthesis import LLMSynthesis, SynthesisReply
from agents.tools import ToolBox
from agents.verifier import verify
from core.errors import LlmBadReply, LlmError
from reader.answer_types import spacy_ner


class SynthesisAnswerer(LlmAnswerer):
    name = "synthesis"
    llm_plans = True

    def read(self, a: Answering, caller: LLMCaller, result: AgenticResult) -> None:
        run, g = a.run, a.gathered
        container, question, cfg, audit, emit = (
            run.container,
            run.question,
            run.cfg,
            run.audit,
            run.emit,
        )
        # The model reads the packed order (strongest documents at both ends); checks use the
        # set. The limit checks' chunks and results reach it too (``agents.numeric_answer``).
        evidence = a.admitted.reading
        if a.checks is not None:
            evidence = with_items(evidence, a.checks.items)
        searcher = container.searcher()
        if cfg.synthesis_sentences:
            whole = evidence
            ner = spacy_ner(cfg.answer_spacy_model)
            options = extractive_options(cfg)
            evidence = focused(
                question, whole, container.embedder, cfg.synthesis_sentences, ner, options
            )
            audit.write(
                "focus",
                sentences=cfg.synthesis_sentences,
                chunks=[len(whole.items), len(evidence.items)],
                characters=[sum(len(i.text) for i in b.items) for b in (whole, evidence)],
            )

        def lookup(query: str) -> list[tuple[str, str]]:
            hits = searcher.search(query, cfg.k_per_query, filters=g.filters)
            return [(h.chunk_id, h.text) for h in hits]

        def on_tool(record: ToolRecord) -> None:
            audit.write("tool_call", **record.model_dump())
            emit("tool", {"name": record.name, "ok": record.error is None})

        tools = ToolBox(evidence, lookup, container.store.numeric_facts)
        if a.checks is not None:
            tools.records += a.checks.records
        synth = LLMSynthesis(caller, tools, cfg.max_tool_rounds, on_tool)
        path = cfg.examples_path or default_examples(container.settings.data_dir)
        shown = examples_for(path, container.embedder, question, cfg.examples_shown)
        audit.write("examples", questions=[e.question for e in shown])
        emit("synthesis", {"evidence": len(evidence.items), "examples": len(shown)})
        open_gaps = g.critiques[-1].typed_gaps if g.critiques else []
        told = gaps_note(open_gaps) + (checks_note(a.checks) if a.checks is not None else "")
        reply = synth.answer(question, evidence, render(shown), told)

        def checked(reply: SynthesisReply) -> tuple[VerifierReport, list[str]]:
            return verify(
                question,
                reply.answer,
                reply.finding_models(),
                evidence,
                caller,
                cfg.quote_min_words,
                cfg.verifier_max_tokens,
                tools=tools.records,
            )

        report, notes = checked(reply)
        audit.write("verify", attempt=0, **report.model_dump(), notes=notes)
        emit("verify", {"attempt": 0, "passed": report.passed, "problems": len(report.problems())})
        for attempt in range(1, cfg.refinement_passes + 1):
            if report.passed:
                break
            emit("refine", {"attempt": attempt, "problems": report.problems()})
            try:
                reply = synth.refine(report.problems())
            except (LlmError, BudgetExceeded) as exc:
                notes.append(f"refinement failed: {exc}")
                break
            report, more = checked(reply)
            notes += more
            audit.write("verify", attempt=attempt, **report.model_dump(), notes=more)
            emit(
                "verify",
                {"attempt": attempt, "passed": report.passed, "problems": len(report.problems())},
            )
        if report.states_nothing and not reply.finding_models():
            # Citations and nothing else, even after refinement: no answer to give; the
            # extractive one is (the caller falls back, as for any failed LLM step).
            raise LlmBadReply("the model's answer held only citations and no findings")
        result.answer = reply.answer
        result.findings = reply.finding_models()
        result.recommendations = list(reply.next_questions)
        composed = report.states_nothing and bool(result.findings)
        if composed:
            # What the model found is in its findings: they become the answer, checked again.
            result.answer = " ".join(
                f"{f.text} {' '.join(f'[{c}]' for c in f.citations)}".strip()
                for f in result.findings
            )
            report, _ = verify(
                question,
                result.answer,
                result.findings,
                evidence,
                None,
                cfg.quote_min_words,
                tools=tools.records,
            )
            notes.append("the model's answer held only citations; the answer is its findings")
            audit.write("verify", attempt="findings", **report.model_dump())
        result.tool_calls = list(tools.records)
        result.verifier = report
        result.warnings += notes + report.problems()
        level, reason = reply.confidence, reply.reason
        if not report.passed:
            level, reason = "LOW", f"{reason} Verification problems remain (see warnings).".strip()
        elif composed and level == "HIGH":
            level, reason = "MEDIUM", f"{reason} Capped at MEDIUM: the answer is the findings."
        result.confidence, result.reason = level, reason
