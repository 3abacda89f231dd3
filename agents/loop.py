"""The evidence loop: context → plan → (retrieve → critique)* until a stopping rule fires.

Shared by the full agent (``agents.orchestrator.answer``) and the offline benchmark preset
(``agents.bench.evidence_ranking``). Every retrieval is written to the audit log with the ids and
scores it returned; each step is also announced through ``on_event`` for streaming.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents.audit import AuditLog
from agents.calls import LLMCaller
from agents.config import AgentHost, AgentSettings
from agents.context import (
    complexity_of,
    iteration_budget,
    link_entities,
    neighbours,
    topic_text,
)
from agents.critique import RoundFacts, critique
from agents.docmeta import DocIndex
from agents.evidence import EvidencePool
from agents.graph_reach import GraphReach
from agents.models import Critique, IterationRound, QueryContext, SubTask, SubTaskPlan
from agents.planner import plan
from core.errors import KgError
from graph_store import GraphStore
from graph_store.read_model import GraphReadModel
from retrieval.embedder import Embedder
from retrieval.filters import SearchFilters
from retrieval.search import Searcher
from retrieval.search_types import Retrieval

OnEvent = Callable[[str, dict[str, Any]], None]


class AgentContainer(Protocol):
    """What the loop needs from ``kg.container.Container`` (opened)."""

    @property
    def settings(self) -> AgentHost: ...
    @property
    def embedder(self) -> Embedder: ...
    @property
    def store(self) -> GraphStore: ...

    def searcher(self) -> Searcher: ...


@dataclass(frozen=True)
class RunContext:
    """One question's run, as every step of it reads it: the opened container, the question,
    the settings in force, the audit log and event sink, the LLM caller (None offline), the
    chunks per sub-query (``k``, None for the settings' own) and the run's filters. With
    ``llm_plans`` False the planner stays deterministic even when a caller is there (an
    answerer that gives the model only the reading)."""

    container: AgentContainer
    question: str
    cfg: AgentSettings
    audit: AuditLog
    emit: OnEvent
    caller: LLMCaller | None = None
    k: int | None = None
    filters: SearchFilters | None = None
    llm_plans: bool = True

    @property
    def per_query(self) -> int:
        return self.k or self.cfg.k_per_query

    @property
    def planner(self) -> LLMCaller | None:
        """The caller the context and plan steps use."""
        return self.caller if self.llm_plans else None


@dataclass
class Gathered:
    ctx: QueryContext
    plan: SubTaskPlan
    pool: EvidencePool
    reach: GraphReach
    tasks: list[SubTask]
    # The pinned searcher every retrieval of the run goes through: one graph version.
    searcher: Searcher
    critiques: list[Critique] = field(default_factory=list)
    iterations: int = 0
    warnings: list[str] = field(default_factory=list)
    bridges: list[tuple[str, str]] = field(default_factory=list)  # (entity id, name)
    extra_rounds: int = 0  # rounds added for role pages (_one_more_round)
    rounds: list[IterationRound] = field(default_factory=list)
    filters: SearchFilters | None = None
    rounds_failed: dict[int, list[str]] = field(default_factory=dict)  # iteration -> failures

    @property
    def model(self) -> GraphReadModel:
        """The read model every round read: the pinned searcher's."""
        return self.searcher.model

    def retrieve(self, task: SubTask, k: int, preset: str | None) -> Retrieval:
        """One sub-query under the run's filters (and the task's own date bound), on the
        run's graph version."""
        return self.searcher.retrieve(task.query, k, preset, task_filters(self.filters, task))


def gather(run: RunContext, searcher: Searcher | None = None) -> Gathered:
    """The evidence of ``run``'s question; its filters (document source, type, dates) apply to
    every retrieval. ``searcher`` replaces the container's (a benchmark keeps one)."""
    container, settings, audit, caller = run.container, run.cfg, run.audit, run.caller
    # Every round reads the graph version of the question's start, whatever commits meanwhile.
    searcher = (searcher or container.searcher()).pinned()
    ctx, reach = _context(run, searcher)
    the_plan = _plan(ctx, run)
    subjects = frozenset(e.entity_id for e in ctx.linked)
    pool = EvidencePool(reach, settings, DocIndex(searcher.model), subjects)
    out = Gathered(
        ctx,
        the_plan,
        pool,
        reach,
        list(the_plan.subtasks),
        searcher,
        warnings=list(the_plan.warnings),
        filters=run.filters,
    )
    round_tasks = list(the_plan.subtasks)
    iteration = 0
    while iteration < ctx.iteration_budget:  # the budget may grow (_one_more_round)
        iteration += 1
        record = IterationRound(iteration=iteration, queries=[t.query for t in round_tasks])
        retrieved, fresh = _retrieve_round(run, out, round_tasks, iteration)
        out.iterations = iteration
        facts = RoundFacts(
            iteration=iteration,
            budget=ctx.iteration_budget,
            retrieved=retrieved,
            fresh=fresh,
            tokens_spent=caller.spent if caller else 0,
            token_budget=settings.max_tokens_total if caller else 0,
        )
        verdict = critique(facts, ctx, out.tasks, pool, reach, settings, out.bridges)
        if verdict.stop and _one_more_round(verdict, ctx, settings, out):
            verdict.stop, verdict.reason = False, "a page the question's role needs is missing"
        out.critiques.append(verdict)
        record.retrieved, record.new_evidence = len(retrieved), len(fresh)
        record.failed = out.rounds_failed.pop(iteration, [])
        record.stop_reason = verdict.reason if verdict.stop else ""
        out.rounds.append(record)
        audit.write("critique", **verdict.model_dump())
        run.emit("critique", verdict.model_dump(include=_CRITIQUE_EVENT))
        if verdict.stop:
            break
        round_tasks = verdict.new_subtasks
        out.tasks += round_tasks
    ranking = pool.bundle()
    audit.write(
        "evidence",
        ranked=[
            {"chunk_id": i.chunk_id, "score": i.score, "tag": i.tag, "distance": i.distance}
            for i in ranking.items
        ],
    )
    return out


def _one_more_round(
    verdict: Critique, ctx: QueryContext, settings: AgentSettings, out: Gathered
) -> bool:
    """Whether a run that used its budget gets one more round for the pages of those the
    evidence names in the question's role (at most ``role_extra_rounds``, within
    ``max_iterations``)."""
    budget_spent = verdict.iteration >= ctx.iteration_budget
    if not (budget_spent and verdict.role_pages and verdict.new_subtasks):
        return False
    if out.extra_rounds >= settings.role_extra_rounds:
        return False
    if ctx.iteration_budget >= settings.max_iterations:
        return False
    ctx.iteration_budget += 1
    out.extra_rounds += 1
    return True


_CRITIQUE_EVENT = {
    "iteration",
    "entity_coverage",
    "subtask_coverage",
    "documents",
    "new_share",
    "stop",
    "reason",
}


def _context(run: RunContext, searcher: Searcher) -> tuple[QueryContext, GraphReach]:
    """What the graph says about the question before any retrieval: linked entities, their
    neighbours on relation paths, and the complexity that sets the iteration budget."""
    question, settings = run.question, run.cfg
    model = searcher.model
    vector = run.container.embedder.embed([question])[0]
    links = link_entities(model, question, vector, settings, searcher.settings)
    topic = run.container.embedder.embed([topic_text(question)])[0]
    reach, ranked = neighbours(model, links.entities, settings, topic)
    complexity = complexity_of(links.groups, settings)
    ctx = QueryContext(
        run_id=run.audit.run_id,
        question=question,
        linked=links.entities,
        neighbours=ranked[: settings.context_neighbours],
        complexity=complexity,
        iteration_budget=iteration_budget(complexity, settings),
        mode="llm" if run.planner is not None else "offline",
    )
    run.audit.write("context", **ctx.model_dump())
    run.emit(
        "context",
        {
            "linked": [e.name for e in ctx.linked],
            "neighbours": [n.name for n in ctx.neighbours],
            "complexity": ctx.complexity,
        },
    )
    return ctx, reach


def _plan(ctx: QueryContext, run: RunContext) -> SubTaskPlan:
    """Sub-tasks with focused queries; the plan's complexity resets the iteration budget."""
    the_plan = plan(ctx, run.planner, run.cfg)
    ctx.complexity = the_plan.complexity
    ctx.iteration_budget = iteration_budget(the_plan.complexity, run.cfg)
    run.audit.write("plan", **the_plan.model_dump(), iteration_budget=ctx.iteration_budget)
    run.emit(
        "plan",
        {
            "source": the_plan.source,
            "complexity": the_plan.complexity,
            "iteration_budget": ctx.iteration_budget,
            "subtasks": [
                {"id": t.id, "query": t.query, "origin": t.origin} for t in the_plan.subtasks
            ],
        },
    )
    return the_plan


def _retrieve_round(
    run: RunContext, out: Gathered, tasks: list[SubTask], iteration: int
) -> tuple[set[str], set[str]]:
    """One retrieval per sub-task into the pool: (chunk ids retrieved, chunk ids new)."""
    retrieved: set[str] = set()
    fresh: set[str] = set()
    for task in tasks:
        try:
            found = out.retrieve(task, run.per_query, run.cfg.preset or None)
        except KgError as exc:
            # A failed sub-query (a store timeout, a filter the store refuses) is logged and the
            # round goes on with the others.
            out.rounds_failed.setdefault(iteration, []).append(f"{task.query}: {exc}")
            _log_failure(run, iteration, task, exc)
            continue
        # The graph preset names the entities on relation paths it followed: more bridges.
        out.bridges += [b for b in found.bridges if b not in out.bridges]
        new = out.pool.add(task, iteration, found.results)
        retrieved.update(r.chunk_id for r in found.results)
        fresh.update(new)
        _log_retrieval(run, iteration, task, found, len(new))
    return retrieved, fresh


def retrieve_more(run: RunContext, g: Gathered, task: SubTask) -> None:
    """One retrieval after the rounds (a part of the question, the reader's hop), joining the
    pool at the last round and audited and streamed as a round's are; a failure is noted on
    the last round's record and the answer goes on with the evidence it has."""
    try:
        found = g.retrieve(task, run.per_query, run.cfg.preset or None)
    except KgError as exc:
        if g.rounds:
            g.rounds[-1].failed.append(f"{task.query}: {exc}")
        _log_failure(run, g.iterations, task, exc)
        return
    new = g.pool.add(task, g.iterations, found.results)
    g.tasks.append(task)
    _log_retrieval(run, g.iterations, task, found, len(new))


def _log_failure(run: RunContext, iteration: int, task: SubTask, exc: KgError) -> None:
    run.audit.write("retrieval_failed", iteration=iteration, subtask=task.id, error=str(exc))
    run.emit("retrieval", {"iteration": iteration, "subtask": task.id, "error": str(exc)})


def _log_retrieval(
    run: RunContext, iteration: int, task: SubTask, found: Retrieval, new: int
) -> None:
    results = found.results
    run.audit.write(
        "retrieval",
        iteration=iteration,
        subtask=task.id,
        origin=task.origin,
        query=task.query,
        preset=found.preset,
        linked=[x.as_dict() for x in found.linked],
        bridges=[{"entity_id": i, "name": n} for i, n in found.bridges],
        k=run.per_query,
        results=[
            {"chunk_id": r.chunk_id, "score": r.score, "components": r.components} for r in results
        ],
    )
    event = {"iteration": iteration, "subtask": task.id, "query": task.query}
    run.emit("retrieval", {**event, "hits": len(results), "new": new})


def task_filters(filters: SearchFilters | None, task: SubTask) -> SearchFilters | None:
    """The run's filters, narrowed to the task's ``date_from`` when it has one."""
    if task.date_from is None:
        return filters
    base = filters or SearchFilters()
    start = max(base.date_from or "", task.date_from)
    return SearchFilters(base.source, base.doc_type, start, base.date_to)
