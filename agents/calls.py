"""Every LLM call of a run goes through here: audited, counted per step, held to the budget."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from agents.audit import AuditLog
from agents.llm import LLMClient, LLMError, LLMResponse
from agents.prompt_files import load
from core.errors import KgError

M = TypeVar("M", bound=BaseModel)


class BudgetExceeded(KgError):
    """The run's token budget is spent; the step falls back to its deterministic path."""


class LLMCaller:
    def __init__(
        self,
        llm: LLMClient,
        audit: AuditLog,
        max_tokens_total: int,
        max_completion_tokens: int,
        temperature: float | None = None,
    ) -> None:
        self.llm = llm
        self._audit = audit
        self._budget = max_tokens_total
        self._max_completion = max_completion_tokens
        self._temperature = temperature
        self.tokens: dict[str, int] = {}

    @property
    def spent(self) -> int:
        return sum(self.tokens.values())

    def chat(
        self,
        step: str,
        prompt: str,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        json_mode: bool = False,
    ) -> LLMResponse:
        if self.spent >= self._budget:
            raise BudgetExceeded(f"token budget of {self._budget} spent before {step}")
        temperature = self._temperature
        self._audit.write(
            "llm_request",
            step=step,
            prompt=prompt,
            model=self.llm.model,
            temperature=temperature,
            json_mode=json_mode,
            tools=[t["function"]["name"] for t in tools or []],
            messages=messages,
        )
        try:
            response = self.llm.chat(
                messages,
                tools=tools,
                json_mode=json_mode,
                temperature=temperature,
                max_tokens=self._max_completion,
            )
        except LLMError as exc:
            self._audit.write("llm_error", step=step, prompt=prompt, error=str(exc))
            raise
        self.tokens[step] = self.tokens.get(step, 0) + response.usage.total_tokens
        self._audit.write(
            "llm_response",
            step=step,
            prompt=prompt,
            model=response.model,
            content=response.content,
            tool_calls=[
                {"id": c.id, "name": c.name, "arguments": c.arguments} for c in response.tool_calls
            ],
            prompt_tokens=response.usage.prompt_tokens,
            completion_tokens=response.usage.completion_tokens,
            step_tokens=self.tokens[step],
        )
        return response

    def json_call(
        self, step: str, prompt: str, messages: list[dict[str, Any]], model: type[M]
    ) -> tuple[M, bool]:
        """Ask for JSON and validate it; one repair round on a malformed reply.

        Returns the value and whether a repair was needed; raises ``ValueError`` when the
        repaired reply is still unusable (the caller falls back).
        """
        response = self.chat(step, prompt, messages, json_mode=True)
        try:
            return parse_json(response.content, model), False
        except ValueError as exc:
            error = str(exc)
        repair = load("repair")
        retry = [
            *messages,
            {"role": "assistant", "content": response.content or ""},
            {"role": "system", "content": repair.system_text()},
            repair.user_message(reply=response.content or "", error=error),
        ]
        response = self.chat(step, f"{prompt}+{repair.ref}", retry, json_mode=True)
        return parse_json(response.content, model), True


def parse_json(content: str | None, model: type[M]) -> M:
    """Strict JSON object validated by ``model``; ``ValueError`` says what was wrong."""
    text = (content or "").strip()
    if text.startswith("```"):
        # Models often fence JSON even when told not to; the fence carries no content.
        text = text.strip("`").removeprefix("json").strip()
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ValueError("the reply is not a JSON object")
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise ValueError(f"JSON does not match the required shape: {exc}") from exc
