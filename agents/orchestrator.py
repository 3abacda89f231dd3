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

The steps share one ``agents.loop.RunContext``; after the evidence loop and admission, the
answerer (``agents.answerer``: extractive offline; with a model, ``KG_AGENT__LLM_ANSWERER``'s
synthesis or reader) writes the answer, and ``agents.closing`` settles the rest.

Every run writes ``<data_dir>/audit/<run_id>.jsonl`` (or ``KG_AGENT__AUDIT_DIR``): settings,
context, plan, every retrieval with ids and scores, critiques, every LLM request and response
with prompt version, model and temperature, tool calls, verifier output and the result. LLM
failures never fail the run: each step falls back to its deterministic path with a warning;
when synthesis fell back, ``mode`` is "llm-failed" and confidence is at most MEDIUM.
"""

from __future__ import annotations

from typing import Any, Literal

from agents.answerer import Answerer, Answering, ExtractiveAnswerer
from agents.audit import AuditLog, new_run_id
from agents.budget import admit
from agents.calls import LLMCaller
from agents.closing import close
from agents.config import AgentSettings
from agents.loop import AgentContainer, Gathered, OnEvent, RunContext, gather, retrieve_more
from agents.models import AgenticResult, Citation, SubTask
from agents.numeric_answer import check_limits, with_items
from agents.numeric_compare import compare_options
from agents.reader import ReaderAnswerer
from agents.reader_hop import reader_hop
from agents.report_answer import ReportAnswerer
from agents.synthesis_answer import SynthesisAnswerer
from agents.verifier import cited_ids
from core.errors import InputError
from llm import LlmClient
from reader.question import part_queries
from retrieval.filters import SearchFilters

__all__ = ["AgentContainer", "OnEvent", "answer", "answerer_for"]


def answerer_for(cfg: AgentSettings, llm: LlmClient | None) -> Answerer:
    """The extractive answerer offline; with a model, the one ``llm_answerer`` names."""
    if llm is None:
        return ExtractiveAnswerer()
    if cfg.llm_answerer == "report":
        return ReportAnswerer()
    return ReaderAnswerer() if cfg.llm_answerer == "reader" else SynthesisAnswerer()


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
    answerer = answerer_for(cfg, llm)
    run = RunContext(container, question, cfg, audit, emit, caller, k, filters, answerer.llm_plans)
    mode: Literal["llm", "llm-failed", "offline"] = "llm" if caller is not None else "offline"
    audit.write(
        "start",
        question=question,
        mode=mode,
        model=llm.model if llm else None,
        temperature=app.llm.temperature if llm else None,
        settings=cfg.model_dump(mode="json"),
        filters=_filters_dict(filters),
        answerer=answerer.name,
    )
    emit("start", {"question": question, "mode": mode})
    g = gather(run)
    _part_evidence(run, g)
    reader_hop(run, g)
    admitted = admit(g.pool.bundle(), cfg, container.embedder, g.model.chunk_vectors)
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
    if not checks.records:
        # An amount comparison between two options, worked out the same way.
        checks = compare_options(
            question, g.ctx.linked, container.store.numeric_facts, container.store.get_chunks
        )
        checked = checks.items
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
    parts = answerer.answer(Answering(run, g, admitted, evidence, checks), result)
    known = evidence.by_id()
    cited = cited_ids(result.answer, result.findings)
    result.citations = [
        Citation(chunk_id=c, document_title=known[c].doc_title) for c in cited if c in known
    ]
    if caller is not None:
        result.tokens = dict(caller.tokens)
    # The report answerer's answer is the offline one (the model only leads it): read as such.
    offline_based = isinstance(answerer, ReportAnswerer)
    close(result, g, evidence, parts, cfg, llm=result.mode == "llm" and not offline_based)
    audit.write("verifier", **(result.verifier.model_dump() if result.verifier else {}))
    audit.write("result", **result.summary())
    emit("done", result.summary())
    return result


def _part_evidence(run: RunContext, g: Gathered) -> None:
    """A question of several parts ("how many X ... and how many Y ...") retrieves for each
    part at the question's own weight: each part needs its own evidence, and the whole
    question's retrieval favours whichever part its words lean to."""
    parts = part_queries(run.question)
    if len(parts) < 2:
        return
    for n, part in enumerate(parts):
        about = "part of the question"
        retrieve_more(
            run, g, SubTask(id=f"part{n}", description=about, query=part, origin="question")
        )


def _filters_dict(filters: SearchFilters | None) -> dict[str, str | None] | None:
    if filters is None or not filters.active:
        return None
    return {
        "source": filters.source,
        "type": filters.doc_type,
        "from": filters.date_from,
        "to": filters.date_to,
    }
