"""Planner: sub-tasks with focused retrieval queries, and the question's complexity.

With an LLM: a reply constrained to ``PlannerReply``'s JSON schema, parsed by it; the
offline plan when that fails. Offline: the question itself, then the strongest graph
neighbours of the entities it names (authority reached through typed relations), then the
long names of entities it named by alias, each becoming a focused query. The question itself
is always the first sub-task, so expansion can add evidence but never lose what the question
alone retrieves.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from agents.calls import BudgetExceeded, LLMCaller
from agents.config import AgentSettings, Complexity
from agents.models import QueryContext, SubTask, SubTaskPlan
from agents.prompt_files import load
from core.errors import LlmError
from core.names import normalize_name


class PlannedTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Bounds keep a small model's grammar-constrained reply from running on.
    description: str = Field(min_length=1, max_length=200)
    query: str = Field(min_length=1, max_length=200)


class PlannerReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    complexity: Complexity
    subtasks: list[PlannedTask] = Field(min_length=1, max_length=6)


def question_task(question: str) -> SubTask:
    return SubTask(id="t0", description="the question as asked", query=question, origin="question")


def entity_query(name: str, question: str) -> str:
    """A focused query: the entity's full name leads, the question keeps it on topic."""
    return f"{name}: {question}"


def offline_plan(ctx: QueryContext, settings: AgentSettings) -> SubTaskPlan:
    tasks = [question_task(ctx.question)]
    asked = f" {normalize_name(ctx.question)} "
    for n in ctx.neighbours[: settings.neighbour_subtasks]:
        tasks.append(
            SubTask(
                id=f"t{len(tasks)}",
                description=f"context through the graph: {' → '.join(n.path)}",
                query=entity_query(n.name, ctx.question),
                origin="neighbour",
                focus_entity_id=n.entity_id,
                focus_name=n.name,
            )
        )
    for e in ctx.linked:
        # An entity named by an alias ("AWT") gets a query with its full name; one the question
        # already spells out adds nothing the question's own retrieval lacks.
        if f" {normalize_name(e.name)} " in asked:
            continue
        tasks.append(
            SubTask(
                id=f"t{len(tasks)}",
                description=f"what the evidence says about {e.name}",
                query=entity_query(e.name, ctx.question),
                origin="planner",
                focus_entity_id=e.entity_id,
                focus_name=e.name,
            )
        )
    return SubTaskPlan(
        complexity=ctx.complexity, subtasks=tasks[: settings.max_subtasks], source="offline"
    )


def plan(ctx: QueryContext, caller: LLMCaller | None, settings: AgentSettings) -> SubTaskPlan:
    if caller is None:
        return offline_plan(ctx, settings)
    prompt = load("planner")
    messages = prompt.messages(
        question=ctx.question,
        max_subtasks=settings.max_subtasks - 1,
        linked="\n".join(f"- {e.name}" for e in ctx.linked) or "- (none found)",
        neighbours="\n".join(
            f"- {n.name} ({n.hops} hops): {' → '.join(n.path)}" for n in ctx.neighbours
        )
        or "- (none)",
    )
    try:
        reply, _ = caller.json(
            "planner", prompt.ref, messages, PlannerReply, max_tokens=settings.planner_max_tokens
        )
    except (LlmError, BudgetExceeded) as exc:
        fallback = offline_plan(ctx, settings)
        fallback.warnings.append(f"planner fell back to the offline plan: {exc}")
        return fallback
    # A planned query that names a known entity is focused on it, for coverage in the critique.
    known = {normalize_name(n.name): (n.entity_id, n.name) for n in ctx.neighbours}
    known.update({normalize_name(e.name): (e.entity_id, e.name) for e in ctx.linked})
    tasks = [question_task(ctx.question)]
    for t in reply.subtasks[: settings.max_subtasks - 1]:
        query = f" {normalize_name(t.query)} "
        focus = next((v for k, v in known.items() if k and f" {k} " in query), None)
        tasks.append(
            SubTask(
                id=f"t{len(tasks)}",
                description=t.description,
                query=t.query,
                origin="planner",
                focus_entity_id=focus[0] if focus else None,
                focus_name=focus[1] if focus else None,
            )
        )
    return SubTaskPlan(complexity=reply.complexity, subtasks=tasks, source="llm")
