"""The LLM port: what every caller in the product may ask of a chat model."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

# Called once per HTTP attempt of a request (1, 2, ...): how retries reach the audit log.
OnAttempt = Callable[[int], None]


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class LlmReply:
    content: str
    finish_reason: str
    usage: Usage
    model: str
    attempts: int = 1  # HTTP requests it took, retries included
    seconds: float = 0.0

    def audit_fields(self) -> dict[str, Any]:
        """What an audit or journal line records of the reply (never the request's keys)."""
        return {
            "model": self.model,
            "content": self.content,
            "finish_reason": self.finish_reason,
            "attempts": self.attempts,
            "seconds": round(self.seconds, 2),
            "prompt_tokens": self.usage.prompt_tokens,
            "completion_tokens": self.usage.completion_tokens,
        }


@runtime_checkable
class LlmClient(Protocol):
    @property
    def model(self) -> str: ...

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int,
        json_schema: dict[str, Any] | None = None,
        temperature: float | None = None,
        on_attempt: OnAttempt | None = None,
    ) -> LlmReply:
        """One chat completion. ``json_schema`` (a ``response_format`` json_schema object)
        asks the server to constrain the reply to it. Raises ``LlmCutOff`` when the reply hit
        ``max_tokens`` and ``LlmError`` when none came after the retries."""
        ...
