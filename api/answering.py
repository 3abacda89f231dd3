"""How ``/v1/ask`` answers: the agent loop, reporting each step to an event sink."""

from __future__ import annotations

from typing import Any

from agents.orchestrator import answer as agent_answer
from api.deps import AppState
from api.streaming import EventSink


def answer(
    state: AppState,
    question: str,
    sink: EventSink,
    *,
    k: int | None = None,
    max_iterations: int | None = None,
) -> dict[str, Any]:
    """The agent loop's result summary; with no LLM configured the loop runs offline and the
    result says so (``mode``, ``warnings``)."""
    result = agent_answer(
        state.container,
        question,
        llm=state.llm,
        on_event=sink,
        k=k,
        max_iterations=max_iterations,
    )
    return {"question": question, **result.summary()}
