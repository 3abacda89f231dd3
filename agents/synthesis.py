"""Synthesis with an LLM: cited answer, tagged findings, confidence; tools on demand.

The model sees the evidence (id, tag, title, text) and the closest few-shot examples. It may
call the numerical tools for up to ``max_tool_rounds`` rounds; every call runs through the
run's ``ToolBox`` (so it is recorded) and its result goes back as a ``tool`` message. The final
reply is strict JSON; a malformed one gets one repair round. ``refine`` continues the same
conversation with the verifier's problems.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agents.calls import LLMCaller, parse_json
from agents.models import EvidenceBundle, Finding, Level, ToolRecord
from agents.prompt_files import load
from agents.tools import SPECS, ToolBox
from agents.verifier import evidence_block

OnTool = Callable[[ToolRecord], None]


class SynthesisReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    answer: str = Field(min_length=1)
    findings: list[Finding] = Field(default_factory=list)
    confidence: Level = "MEDIUM"
    reason: str = ""


class LLMSynthesis:
    def __init__(
        self,
        caller: LLMCaller,
        tools: ToolBox,
        max_tool_rounds: int,
        on_tool: OnTool | None = None,
    ) -> None:
        self._caller = caller
        self._tools = tools
        self._max_tool_rounds = max_tool_rounds
        self._on_tool = on_tool
        self._messages: list[dict[str, Any]] = []
        self._prompt = load("synthesis")

    def answer(self, question: str, evidence: EvidenceBundle, examples: str) -> SynthesisReply:
        self._messages = self._prompt.messages(
            question=question, evidence=evidence_block(evidence), examples=examples
        )
        return self._complete("synthesis", self._prompt.ref)

    def refine(self, problems: list[str]) -> SynthesisReply:
        prompt = load("refine")
        self._messages += [
            {"role": "system", "content": prompt.system_text()},
            prompt.user_message(problems="\n".join(f"- {p}" for p in problems)),
        ]
        return self._complete("refine", f"{self._prompt.ref}+{prompt.ref}")

    def _complete(self, step: str, ref: str) -> SynthesisReply:
        rounds = 0
        while True:
            allow_tools = rounds < self._max_tool_rounds
            response = self._caller.chat(
                step, ref, self._messages, tools=SPECS if allow_tools else None
            )
            self._messages.append(response.as_message())
            if not response.tool_calls:
                break
            rounds += 1
            for call in response.tool_calls:
                record = self._tools.run(call)
                if self._on_tool is not None:
                    self._on_tool(record)
                self._messages.append(ToolBox.message(call, record))
        try:
            return parse_json(response.content, SynthesisReply)
        except ValueError as exc:
            error = str(exc)
        repair = load("repair")
        self._messages += [
            {"role": "system", "content": repair.system_text()},
            repair.user_message(reply=response.content or "", error=error),
        ]
        response = self._caller.chat(step, f"{ref}+{repair.ref}", self._messages, json_mode=True)
        self._messages.append(response.as_message())
        return parse_json(response.content, SynthesisReply)
