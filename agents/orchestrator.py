"""The agent loop's entry point.

    answer(container, question, *, llm=None, on_event=None, max_iterations=None, k=None,
           settings=None) -> AgenticResult

``container`` is an opened ``kg.container.Container`` (anything with ``settings``, ``embedder``,
``store`` and ``searcher()``). ``llm`` is an ``llm.LlmClient`` or None for the offline loop
(``llm.openai_compat.build_llm(settings.llm)`` gives the configured one). ``on_event(step,
payload)`` is called synchronously, in order, with small JSON-ready dicts — steps ``start``,
``context``, ``plan``, ``retrieval``, ``critique``, ``synthesis``, ``tool``, ``verify``,
``refine``, ``done`` (its payload is ``AgenticResult.summary()``) — for server-sent events.
``max_iterations`` caps the rounds below ``KG_AGENT__MAX_ITERATIONS``; ``k`` overrides the
chunks retrieved per sub-query; ``settings`` replaces ``container.settings.agent``; ``filters``
(document source, type, date range) apply to every retrieval of the run. The result carries
the analyst's report (``agents.report``) with typed gaps (``agents.gaps``).

Every run writes ``<data_dir>/audit/<run_id>.jsonl`` (or ``KG_AGENT__AUDIT_DIR``): settings,
context, plan, every retrieval with ids and scores, critiques, every LLM request and response
with prompt version, model and temperature, tool calls, verifier output and the result. LLM
failures never fail the run: each step falls back to its deterministic path with a warning;
when synthesis fell back, ``mode`` is "llm-failed" and confidence is at most MEDIUM.
"""

from __future__ import annotations

from typing import Any, Literal

from agents.answer_types import spacy_ner
from agents.audit import AuditLog, new_run_id
from agents.budget import Admitted, admit
from agents.calls import BudgetExceeded, LLMCaller
from agents.closing import close
from agents.confidence import cap_by_parts, evidence_confidence
from agents.config import AgentSettings
from agents.extractive import (
    NO_LLM_NOTE,
    ExtractiveAnswer,
    ExtractiveOptions,
    PartAnswer,
    extractive_answer,
)
from agents.fewshot import default_examples, examples_for, render
from agents.focus import focused
from agents.gaps import gaps_note
from agents.loop import AgentContainer, Gathered, OnEvent, gather
from agents.models import (
    AgenticResult,
    Citation,
    EvidenceBundle,
    Finding,
    SubTask,
    ToolRecord,
)
from agents.numeric_answer import (
    LimitChecks,
    apply_checks,
    check_limits,
    checks_note,
    with_items,
)
from agents.question import part_queries
from agents.synthesis import LLMSynthesis
from agents.tools import ToolBox
from agents.verifier import cited_ids, verify
from core.errors import InputError, KgError, LlmBadReply, LlmError
from graph_store.types import ChunkHit
from llm import LlmClient
from retrieval.filters import SearchFilters

__all__ = ["AgentContainer", "OnEvent", "answer"]


def answer(
    container: AgentContainer,
    question: str,
    *,
    llm: LlmClient | None = None,
    on_event: OnEvent | None = None,
    max_iterations: int | None = None,
    k: int | None = None,
    settings: AgentSettings | None = None,
    filters: SearchFilters | None = None,
) -> AgenticResult:
    if not question.strip():
        raise InputError("question", "is empty")
    cfg = settings or container.settings.agent
    if max_iterations is not None:
        cfg = cfg.model_copy(update={"max_iterations": max(1, max_iterations)})
    run_id = new_run_id()
    app = container.settings
    secrets = [app.llm.api_key, *(s.strip() for s in app.api_keys.split(","))]
    audit = AuditLog(cfg.audit_dir or app.data_dir / "audit", run_id, secrets)

    def emit(step: str, payload: dict[str, Any]) -> None:
        if on_event is not None:
            on_event(step, {"run_id": run_id, **payload})

    caller = None
    if llm is not None:
        # Sent explicitly on every call, so the audit log records what the server was asked for.
        caller = LLMCaller(
            llm, audit, cfg.max_tokens_total, cfg.max_completion_tokens, app.llm.temperature
        )
    mode: Literal["llm", "llm-failed", "offline"] = "llm" if caller is not None else "offline"
    audit.write(
        "start",
        question=question,
        mode=mode,
        model=llm.model if llm else None,
        temperature=app.llm.temperature if llm else None,
        settings=cfg.model_dump(mode="json"),
        filters=_filters_dict(filters),
    )
    emit("start", {"question": question, "mode": mode})
    g = gather(container, question, cfg, audit, emit, caller, k, filters=filters)
    _part_evidence(container, question, g, cfg, k)
    admitted = admit(g.pool.bundle(), cfg, container.embedder)
    evidence = admitted.ranked
    audit.write(
        "admitted",
        chunk_ids=evidence.ids(),
        reading_order=admitted.reading.ids(),
        duplicates=admitted.duplicates,
        tokens=admitted.tokens,
        budget=cfg.evidence_token_budget,
    )
    # A limit question's checks, worked out by the tools from the graph's numeric facts.
    checks, checked = check_limits(
        question, container.store.numeric_facts, container.store.get_chunks
    )
    evidence = with_items(evidence, checked)
    result = AgenticResult(
        run_id=run_id,
        question=question,
        answer="",
        iterations=g.iterations,
        complexity=g.plan.complexity,
        mode=mode,
        model=llm.model if llm else None,
        plan=g.plan,
        critiques=g.critiques,
        warnings=list(g.warnings),
        used_chunk_ids=evidence.ids(),
        audit_log=str(audit.path),
    )
    parts: list[PartAnswer] = []
    if caller is None or not _try_llm(
        container, question, admitted, g, cfg, caller, audit, emit, result, checks
    ):
        parts = _fallback_answer(
            container, question, g, evidence, cfg, result, caller is None, checks
        )
    else:
        parts = _cap_llm_high(container, question, evidence, cfg, result)
    known = evidence.by_id()
    cited = cited_ids(result.answer, result.findings)
    result.citations = [
        Citation(chunk_id=c, document_title=known[c].doc_title) for c in cited if c in known
    ]
    if caller is not None:
        result.tokens = dict(caller.tokens)
    close(result, g, evidence, parts, cfg, llm=result.mode == "llm")
    audit.write("verifier", **(result.verifier.model_dump() if result.verifier else {}))
    audit.write("result", **result.summary())
    emit("done", result.summary())
    return result


def _try_llm(
    container: AgentContainer,
    question: str,
    admitted: Admitted,
    g: Gathered,
    cfg: AgentSettings,
    caller: LLMCaller,
    audit: AuditLog,
    emit: OnEvent,
    result: AgenticResult,
    checks: LimitChecks,
) -> bool:
    """The LLM's synthesis and verification; False, said in the result, when it failed."""
    try:
        _llm_answer(container, question, admitted, g, cfg, caller, audit, emit, result, checks)
        return True
    except (LlmError, BudgetExceeded) as exc:
        result.mode = "llm-failed"
        result.note = (
            f"The LLM step failed ({exc}); this answer is extractive, quoted from the evidence."
        )
        result.warnings.append(result.note)
        audit.write("fallback", step="synthesis", error=str(exc))
        return False


def _fallback_answer(
    container: AgentContainer,
    question: str,
    g: Gathered,
    evidence: EvidenceBundle,
    cfg: AgentSettings,
    result: AgenticResult,
    no_llm: bool,
    checks: LimitChecks | None = None,
) -> list[PartAnswer]:
    """The extractive answer, verified deterministically; the parts of the question it
    found (or not)."""
    parts = _offline_answer(container, question, g, evidence, cfg, result, no_llm)
    if checks is not None and checks.records:
        apply_checks(result, checks, question)
    report, _ = verify(
        question,
        result.answer,
        result.findings,
        evidence,
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
    return parts


def _part_evidence(
    container: AgentContainer, question: str, g: Gathered, cfg: AgentSettings, k: int | None
) -> None:
    """A question of several parts ("how many X ... and how many Y ...") retrieves for each
    part at the question's own weight: each part needs its own evidence, and the whole
    question's retrieval favours whichever part its words lean to."""
    parts = part_queries(question)
    if len(parts) < 2:
        return
    searcher = container.searcher()
    for n, part in enumerate(parts):
        task = SubTask(
            id=f"part{n}", description="part of the question", query=part, origin="question"
        )
        try:
            found = g.retrieve(searcher, task, k or cfg.k_per_query, cfg.preset or None)
        except KgError as exc:
            if g.rounds:
                g.rounds[-1].failed.append(f"{part}: {exc}")
            continue
        g.pool.add(task, g.iterations, found.results)
        g.tasks.append(task)


def _filters_dict(filters: SearchFilters | None) -> dict[str, str | None] | None:
    if filters is None or not filters.active:
        return None
    return {
        "source": filters.source,
        "type": filters.doc_type,
        "from": filters.date_from,
        "to": filters.date_to,
    }


def _llm_answer(
    container: AgentContainer,
    question: str,
    admitted: Admitted,
    g: Gathered,
    cfg: AgentSettings,
    caller: LLMCaller,
    audit: AuditLog,
    emit: OnEvent,
    result: AgenticResult,
    checks: LimitChecks,
) -> None:
    # The model reads the packed order (strongest documents at both ends); checks use the set.
    # The limit checks' chunks and results reach it too (``agents.numeric_answer``).
    evidence = with_items(admitted.reading, checks.items)
    searcher = container.searcher()
    if cfg.synthesis_sentences:
        whole = evidence
        ner = spacy_ner(cfg.answer_spacy_model)
        options = _extractive_options(cfg)
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
    tools.records += checks.records
    synth = LLMSynthesis(caller, tools, cfg.max_tool_rounds, on_tool)
    path = cfg.examples_path or default_examples(container.settings.data_dir)
    shown = examples_for(path, container.embedder, question, cfg.examples_shown)
    audit.write("examples", questions=[e.question for e in shown])
    emit("synthesis", {"evidence": len(evidence.items), "examples": len(shown)})
    open_gaps = g.critiques[-1].typed_gaps if g.critiques else []
    told = gaps_note(open_gaps) + checks_note(checks)
    reply = synth.answer(question, evidence, render(shown), told)
    report, notes = verify(
        question,
        reply.answer,
        reply.finding_models(),
        evidence,
        caller,
        cfg.quote_min_words,
        cfg.verifier_max_tokens,
        tools=tools.records,
    )
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
        report, more = verify(
            question,
            reply.answer,
            reply.finding_models(),
            evidence,
            caller,
            cfg.quote_min_words,
            cfg.verifier_max_tokens,
            tools=tools.records,
        )
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
            f"{f.text} {' '.join(f'[{c}]' for c in f.citations)}".strip() for f in result.findings
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


def _offline_answer(
    container: AgentContainer,
    question: str,
    g: Gathered,
    evidence: EvidenceBundle,
    cfg: AgentSettings,
    result: AgenticResult,
    no_llm: bool,
) -> list[PartAnswer]:
    ex = _extractive(container, question, evidence, cfg)
    result.answer = ex.answer
    # Quoted evidence sentences are facts as stated; nothing is inferred offline.
    result.findings = [Finding(text=s, kind="FACT", citations=[c]) for s, c in ex.sentences]
    if no_llm:
        result.note = NO_LLM_NOTE
        result.warnings.insert(0, NO_LLM_NOTE)
    level, reason = evidence_confidence(g, evidence, result.findings, cfg)
    result.confidence, result.reason = cap_by_parts(level, reason, ex.parts, question)
    return ex.parts


def _extractive(
    container: AgentContainer, question: str, evidence: EvidenceBundle, cfg: AgentSettings
) -> ExtractiveAnswer:
    strategic = [i for i in evidence.items if i.tag == "STRATEGIC"][: cfg.extractive_graph_lines]

    def siblings(chunk_id: str) -> list[ChunkHit]:
        # Every chunk of the document, in order (ids carry the chunk index): a list the
        # question asks for is quoted whole even when retrieval found only part of it.
        hits = container.store.get_chunks([chunk_id])
        return container.store.document_chunks(hits[0].doc_id)[: cfg.max_evidence] if hits else []

    return extractive_answer(
        question,
        evidence.items,
        container.embedder,
        options=_extractive_options(cfg),
        graph_context=[(i, i.path) for i in strategic],
        siblings=siblings,
        ner=spacy_ner(cfg.answer_spacy_model),
        about={i.chunk_id for i in evidence.items if i.tag == "PRIMARY"},
    )


def _cap_llm_high(
    container: AgentContainer,
    question: str,
    evidence: EvidenceBundle,
    cfg: AgentSettings,
    result: AgenticResult,
) -> list[PartAnswer]:
    """The model's HIGH stands only where the offline checks would allow HIGH too (the
    asked-for fact found, of the asked type, in a well-matched sentence; no chain through
    another subject). The 1.5B model called all of 10 HotpotQA answers HIGH, 5 of them wrong.
    Returns the offline reader's parts (for the report's missing-fact gaps)."""
    parts = _extractive(container, question, evidence, cfg).parts
    if result.confidence != "HIGH":
        return parts
    level, why = cap_by_parts("HIGH", "", parts, question)
    if level != "HIGH":
        result.confidence = "MEDIUM"
        result.reason = f"{result.reason} Capped at MEDIUM: {why.lstrip('; ')}.".strip()
    return parts


def _extractive_options(cfg: AgentSettings) -> ExtractiveOptions:
    return ExtractiveOptions(
        max_sentences=cfg.extractive_sentences,
        min_words=cfg.extractive_min_words,
        rank_penalty=cfg.extractive_rank_penalty,
    )
