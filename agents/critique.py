"""Critique: measured signals after each round, and the gaps that become new sub-queries.

Coverage is the share of the question's entities mentioned by some evidence chunk, and of
sub-tasks whose retrieval found a chunk mentioning their focus entity (any chunk, when a
sub-task has no focus). Convergence is the share of this round's evidence that is new. Gaps are
uncovered entities first, then bridge entities: graph neighbours of the question's entities,
strongest authority first, then the entities on the relation paths the graph preset followed,
that no evidence mentions yet; each gap becomes a focused query. Typed gaps (``agents.gaps``:
too few sources, one source dominating, evidence older than the question's horizon, planned
sub-tasks without evidence) come first: their queries are what the next round asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agents.config import AgentSettings
from agents.evidence import EvidencePool
from agents.gaps import evidence_gaps, horizon, subtask_gaps
from agents.graph_reach import GraphReach
from agents.models import Critique, Gap, QueryContext, SubTask
from agents.planner import entity_query
from agents.role_gaps import role_fillers


@dataclass(frozen=True)
class RoundFacts:
    iteration: int
    budget: int
    retrieved: set[str]  # chunk ids this round's sub-tasks returned
    fresh: set[str]  # of those, the ones new to the pool
    tokens_spent: int = 0
    token_budget: int = 0


def critique(
    facts: RoundFacts,
    ctx: QueryContext,
    tasks: list[SubTask],
    pool: EvidencePool,
    reach: GraphReach,
    settings: AgentSettings,
    bridges: Sequence[tuple[str, str]] = (),
) -> Critique:
    evidence = pool.bundle()
    mentioned: set[str] = set()
    reach.load([item.chunk_id for item in evidence.items])
    for item in evidence.items:
        mentioned.update(reach.mentions(item.chunk_id))
    wanted = [e.entity_id for e in ctx.linked]
    entity_cov = _share(sum(e in mentioned for e in wanted), len(wanted))
    done = 0
    reach.load(c for t in tasks for c in pool.retrieved_by(t.id))
    for t in tasks:
        got = pool.retrieved_by(t.id)
        if t.focus_entity_id is None:
            done += bool(got)
        else:
            done += any(t.focus_entity_id in reach.mentions(c) for c in got)
    task_cov = _share(done, len(tasks))
    documents = len(evidence.documents())
    new_share = _share(len(facts.fresh), len(facts.retrieved))
    # The first round has nothing to converge to: everything in it is new.
    converged = facts.iteration > 1 and new_share < settings.convergence_min_new_share
    asked = {t.query if t.date_from is None else f"{t.query} (recent)" for t in tasks}

    def found(t: SubTask) -> bool:
        got = pool.retrieved_by(t.id)
        if t.focus_entity_id is None:
            return bool(got)
        return any(t.focus_entity_id in reach.mentions(c) for c in got)

    typed = evidence_gaps(
        ctx.question,
        evidence.items[: settings.max_evidence],
        ctx.linked,
        mentioned,
        settings,
        lambda name: entity_query(name, ctx.question),
    ) + subtask_gaps(tasks, found)
    # Gaps another query can close (entity gaps are asked below, through their entity).
    open_gaps = [
        g
        for g in typed
        if g.category in ("recency", "source_dominance", "coverage")
        and not g.description.startswith("no evidence mentions")
        and _key(g) not in asked
    ]
    # What the evidence names in an asked role ("directed by Ann Lee") whose page it lacks:
    # the next hop's answer is on that page, asked for by the name alone (with the question
    # beside it the first hop's pages come back first). Asked once each; one still missing
    # then does not keep the loop going.
    roles = [
        (e, n)
        for e, n in role_fillers(ctx.question, evidence.items[: settings.max_evidence], reach)
        if n not in asked
    ]
    covered = (
        min(entity_cov, task_cov) >= settings.coverage_target
        and documents >= settings.min_documents
        and not any(g.severity == "high" for g in open_gaps)
        and not roles
    )
    gaps: list[tuple[str, str]] = [
        (e.entity_id, e.name) for e in ctx.linked if e.entity_id not in mentioned
    ]
    gaps += [(n.entity_id, n.name) for n in ctx.neighbours if n.entity_id not in mentioned]
    gaps += [(b, name) for b, name in bridges if b not in mentioned and (b, name) not in gaps]
    new_tasks: list[SubTask] = [
        _focused(
            len(tasks) + n,
            (entity_id, name),
            name,
            f"gap: the page of {name}, named in the question's role, is missing",
        )
        for n, (entity_id, name) in enumerate(roles[: settings.max_gap_queries])
    ]
    asked.update(name for _, name in roles)
    for gap in open_gaps:
        if len(new_tasks) >= settings.max_gap_queries:
            break
        asked.add(_key(gap))
        new_tasks.append(
            SubTask(
                id=f"t{len(tasks) + len(new_tasks)}",
                description=f"{gap.category} gap: {gap.description}",
                query=gap.query,
                origin="gap",
                date_from=_since(ctx.question, settings) if gap.category == "recency" else None,
            )
        )
    for entity_id, name in gaps:
        if len(new_tasks) >= settings.max_gap_queries:
            break
        query = entity_query(name, ctx.question)
        if query in asked:
            continue
        asked.add(query)
        new_tasks.append(
            _focused(
                len(tasks) + len(new_tasks),
                (entity_id, name),
                query,
                f"gap: no evidence mentions {name} yet",
            )
        )
    reason = _stop_reason(facts, covered, converged, bool(new_tasks))
    return Critique(
        iteration=facts.iteration,
        entity_coverage=entity_cov,
        subtask_coverage=task_cov,
        documents=documents,
        new_share=new_share,
        converged=converged,
        covered=covered,
        gaps=[name for _, name in [*roles, *gaps]],
        role_pages=[name for _, name in roles],
        typed_gaps=typed,
        new_subtasks=new_tasks,
        stop=bool(reason),
        reason=reason or "gaps remain: querying bridge entities",
    )


def _focused(number: int, entity: tuple[str, str], query: str, description: str) -> SubTask:
    """A gap query about one entity: ``entity`` is (entity id, name)."""
    return SubTask(
        id=f"t{number}",
        description=description,
        query=query,
        origin="gap",
        focus_entity_id=entity[0],
        focus_name=entity[1],
    )


def _stop_reason(facts: RoundFacts, covered: bool, converged: bool, has_gaps: bool) -> str:
    if facts.iteration >= facts.budget:
        return f"iteration budget of {facts.budget} reached"
    if facts.token_budget and facts.tokens_spent >= facts.token_budget:
        return f"token budget of {facts.token_budget} spent"
    if covered:
        return "covered: every entity and sub-task has evidence from enough documents"
    if converged:
        return "converged: little new evidence in this round"
    if not has_gaps:
        return "no gaps left to query"
    return ""


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 1.0


def _key(gap: Gap) -> str:
    # A recency query is the question itself, asked again over recent documents only.
    return f"{gap.query} (recent)" if gap.category == "recency" else gap.query


def _since(question: str, settings: AgentSettings) -> str | None:
    wanted = horizon(question, settings)
    return wanted[0] if wanted else None
