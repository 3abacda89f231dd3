"""Every LLM call of a run goes through here: audited, counted per step, held to the budget.

Each request is written to the audit log before it is sent, each extra HTTP attempt (the
client's retries) as it starts, and the outcome after: reply with finish reason, tokens,
attempts and seconds, or the error with its attempts. Structured steps ask for the JSON schema
of a pydantic model and parse the reply with it; there is no repair round.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from agents.audit import AuditLog
from core.errors import KgError, LlmError
from llm import LlmClient, LlmReply, response_format
from llm.structured import parse

M = TypeVar("M", bound=BaseModel)


class BudgetExceeded(KgError):
    """The run's token budget is spent; the step falls back to its deterministic path."""


class LLMCaller:
    def __init__(
        self,
        llm: LlmClient,
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
        self.failures: dict[str, int] = {}

    @property
    def spent(self) -> int:
        return sum(self.tokens.values())

    def _spend(self, step: str, n: int) -> None:
        self.tokens[step] = self.tokens.get(step, 0) + n

    def chat(
        self,
        step: str,
        prompt: str,
        messages: list[dict[str, Any]],
        *,
        schema: type[BaseModel] | None = None,
        max_tokens: int | None = None,
    ) -> LlmReply:
        if self.spent >= self._budget:
            raise BudgetExceeded(f"token budget of {self._budget} spent before {step}")
        cap = max_tokens or self._max_completion
        self._audit.write(
            "llm_request",
            step=step,
            prompt=prompt,
            model=self.llm.model,
            temperature=self._temperature,
            schema=schema.__name__ if schema else None,
            max_tokens=cap,
            messages=messages,
        )

        def attempt(n: int) -> None:
            if n > 1:
                self._audit.write("llm_retry", step=step, prompt=prompt, attempt=n)

        try:
            reply = self.llm.complete(
                messages,
                max_tokens=cap,
                json_schema=response_format(schema) if schema else None,
                temperature=self._temperature,
                on_attempt=attempt,
            )
        except LlmError as exc:
            self._spend(step, sum(exc.tokens))
            self.failures[step] = self.failures.get(step, 0) + 1
            self._audit.write(
                "llm_error",
                step=step,
                prompt=prompt,
                error=str(exc),
                kind=type(exc).__name__,
                attempts=exc.attempts,
                prompt_tokens=exc.tokens[0],
                completion_tokens=exc.tokens[1],
            )
            raise
        self._spend(step, reply.usage.total_tokens)
        self._audit.write(
            "llm_response",
            step=step,
            prompt=prompt,
            **reply.audit_fields(),
            step_tokens=self.tokens[step],
        )
        return reply

    def json(
        self,
        step: str,
        prompt: str,
        messages: list[dict[str, Any]],
        model: type[M],
        *,
        max_tokens: int | None = None,
    ) -> tuple[M, LlmReply]:
        """A schema-constrained reply parsed by ``model``; ``LlmError`` when it cannot be had."""
        reply = self.chat(step, prompt, messages, schema=model, max_tokens=max_tokens)
        try:
            return parse(reply, model), reply
        except LlmError as exc:
            self.failures[step] = self.failures.get(step, 0) + 1
            self._audit.write("llm_error", step=step, prompt=prompt, error=str(exc))
            raise
