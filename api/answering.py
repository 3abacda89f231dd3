"""How ``/v1/ask`` answers: the agent loop, reporting each step to an event sink."""

from __future__ import annotations

from typing import Any

from agents.orchestrator import answer as agent_answer
from api.deps import AppState
from api.streaming import EventSink
from retrieval.filters import SearchFilters


def answer(
    state: AppState,
    question: str,
    sink: EventSink,
    *,
    k: int | None = None,
    max_iterations: int | None = None,
    filters: SearchFilters | None = None,
) -> dict[str, Any]:
    """The agent loop's result summary with the analyst's report (``report``); with no LLM
    configured the loop runs offline and the result says so (``mode``, ``warnings``). The
    run's audit trail is served at ``/v1/runs/{run_id}``; the server's file path is not
    given out."""
    result = agent_answer(
        state.container,
        question,
        llm=state.llm,
        on_event=lambda step, payload: sink(step, public(payload)),
        k=k,
        max_iterations=max_iterations,
        filters=filters,
    )
    summary = {"question": question, **result.summary(), "audit": f"/v1/runs/{result.run_id}"}
    return {k: public(v) for k, v in summary.items() if k != "audit_log"}


def public(payload: Any) -> Any:
    """``payload`` without the audit file's server path (the ``done`` event carries it)."""
    if isinstance(payload, dict):
        return {k: public(v) for k, v in payload.items() if k != "audit_log"}
    return payload
