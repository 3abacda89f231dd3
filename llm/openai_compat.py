"""The OpenAI-compatible adapter (OpenAI, vLLM, Ollama, llama.cpp's server, xllamacpp).

The ``openai`` SDK is imported on the first request; constructing a client does no I/O. The
SDK's own retries (connection errors, 408/409/429/5xx, timeouts; honouring ``Retry-After``)
replace hand-written ones; an httpx request hook counts the attempts of each call so a retry
is never invisible: the reply and the error both carry the count, and ``on_attempt`` reports
each one as it starts. Each request's timeout follows the server's speed
(``LlmSettings.timeout_for``).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from core.errors import LlmCutOff, LlmError
from llm.config import LlmSettings
from llm.port import LlmReply, OnAttempt, Usage


class OpenAICompatClient:
    def __init__(self, settings: LlmSettings) -> None:
        self._cfg = settings
        self._client: Any = None
        self._lock = threading.Lock()
        self._local = threading.local()

    @property
    def model(self) -> str:
        return self._cfg.model

    @property
    def settings(self) -> LlmSettings:
        return self._cfg

    def __repr__(self) -> str:  # never show the key
        return f"OpenAICompatClient(base_url={self._cfg.base_url!r}, model={self._cfg.model!r})"

    def _sdk(self) -> Any:
        with self._lock:
            if self._client is None:
                import httpx
                import openai

                self._client = openai.OpenAI(
                    base_url=self._cfg.base_url,
                    # Local servers take no key, but the SDK refuses to build a client without.
                    api_key=self._cfg.api_key or "not-needed",
                    max_retries=self._cfg.max_retries,
                    http_client=httpx.Client(event_hooks={"request": [self._attempt]}),
                )
            return self._client

    def _attempt(self, _request: Any) -> None:
        n = getattr(self._local, "attempts", 0) + 1
        self._local.attempts = n
        hook: OnAttempt | None = getattr(self._local, "hook", None)
        if hook is not None:
            hook(n)

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int,
        json_schema: dict[str, Any] | None = None,
        temperature: float | None = None,
        on_attempt: OnAttempt | None = None,
    ) -> LlmReply:
        import openai

        client = self._sdk()
        chars = sum(len(str(m.get("content") or "")) for m in messages)
        timeout = self._cfg.timeout_for(chars, max_tokens)
        request: dict[str, Any] = {
            "model": self._cfg.model,
            "messages": messages,
            "temperature": self._cfg.temperature if temperature is None else temperature,
            "max_tokens": max_tokens,
        }
        if json_schema is not None:
            request["response_format"] = {"type": "json_schema", "json_schema": json_schema}
        self._local.attempts, self._local.hook = 0, on_attempt
        started = time.monotonic()
        try:
            completion = client.with_options(timeout=timeout).chat.completions.create(**request)
        except openai.APITimeoutError as exc:
            raise LlmError(
                f"LLM request timed out after {timeout:.0f}s ({self._local.attempts} attempt(s))",
                self._local.attempts,
            ) from exc
        except openai.APIStatusError as exc:
            raise LlmError(
                f"LLM request refused ({exc.status_code}, {self._local.attempts} attempt(s)): "
                f"{str(exc)[:300]}",
                self._local.attempts,
            ) from exc
        except (openai.APIError, ValueError, TypeError) as exc:
            raise LlmError(
                f"LLM request failed ({self._local.attempts} attempt(s)): {str(exc)[:300]}",
                self._local.attempts,
            ) from exc
        finally:
            self._local.hook = None
        return _reply(completion, self._cfg.model, self._local.attempts, started, max_tokens)


def _reply(completion: Any, model: str, attempts: int, started: float, cap: int) -> LlmReply:
    choices = getattr(completion, "choices", None)
    if not choices:
        raise LlmError("the completion has no choices", attempts)
    choice = choices[0]
    usage = getattr(completion, "usage", None)
    reply = LlmReply(
        content=str(choice.message.content or ""),
        finish_reason=str(choice.finish_reason or ""),
        usage=Usage(
            int(getattr(usage, "prompt_tokens", 0) or 0),
            int(getattr(usage, "completion_tokens", 0) or 0),
        ),
        model=str(getattr(completion, "model", "") or model),
        attempts=attempts,
        seconds=time.monotonic() - started,
    )
    if reply.finish_reason == "length":
        raise LlmCutOff(
            f"the reply hit its cap of {cap} tokens and is incomplete "
            f"({reply.usage.completion_tokens} written)",
            attempts,
            (reply.usage.prompt_tokens, reply.usage.completion_tokens),
        )
    return reply


def build_llm(settings: LlmSettings) -> OpenAICompatClient | None:
    """The configured client, or None when no base URL and model are set."""
    return OpenAICompatClient(settings) if settings.configured else None
