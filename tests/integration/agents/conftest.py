"""Fixtures for agent-loop tests: settings writing audit logs to a temp dir, and a scripted
LLM that answers each step (planner, synthesis, verifier) from its own queue."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.config import AgentSettings
from tests.fakes.openai_server import Reply

STEP_MARKERS = {
    "planner": "You plan evidence gathering",
    "synthesis": "You answer questions using only",
    "verifier": "You check an answer against its evidence",
    "reader": "You answer a question from numbered sentences",
}
EVIDENCE_ID = re.compile(r"^\[([^\]\s]+)\] \(", re.MULTILINE)

Step = Reply | str | Callable[[dict[str, Any]], Reply | str]


def step_of(body: dict[str, Any]) -> str:
    first = body["messages"][0]["content"]
    for step, marker in STEP_MARKERS.items():
        if marker in first:
            return step
    raise AssertionError(f"unknown prompt: {first[:80]!r}")


def evidence_ids(body: dict[str, Any]) -> list[str]:
    """Chunk ids in the evidence block of a synthesis or verifier request, in order."""
    return EVIDENCE_ID.findall(body["messages"][1]["content"])


def evidence_texts(body: dict[str, Any]) -> dict[str, str]:
    block = body["messages"][1]["content"]
    parts = re.split(r"^\[([^\]\s]+)\] \([^)]*\)\n", block, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


class Script:
    """A responder for FakeOpenAIServer: one queue per step, calls logged per step."""

    def __init__(self, **steps: list[Step]) -> None:
        self.queues = {name: deque(replies) for name, replies in steps.items()}
        self.calls: dict[str, list[dict[str, Any]]] = {name: [] for name in STEP_MARKERS}

    def __call__(self, body: dict[str, Any]) -> Reply | str:
        step = step_of(body)
        self.calls[step].append(body)
        queue = self.queues.get(step)
        if not queue:
            raise AssertionError(f"no scripted reply left for {step}")
        reply = queue.popleft()
        return reply(body) if callable(reply) else reply


@pytest.fixture()
def agent_settings(tmp_path: Path) -> AgentSettings:
    """The loop with the synthesis answerer, the step the fake servers' scripts answer."""
    return AgentSettings(audit_dir=tmp_path / "audit", llm_answerer="synthesis")
