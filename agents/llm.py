"""The LLM port and its OpenAI-compatible adapter.

Everything past this module speaks OpenAI-format message dicts and receives ``LLMResponse``;
nothing else imports a provider SDK. The ``openai`` package is imported on the first call, and
constructing a client does no I/O.

Retries are ours rather than the SDK's: rate limits (429), server errors (5xx), timeouts,
dropped connections and unreadable bodies are retried with exponential backoff (honouring a
``Retry-After`` header), so the backoff is a visible setting and tests can make it small.
Whatever is still failing after the retries becomes ``LLMError``.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from core.errors import KgError

if TYPE_CHECKING:
    from llm.config import LlmSettings

# A Retry-After longer than this is treated as "give up now" rather than stalling a request.
MAX_RETRY_AFTER_S = 60.0


class LLMError(KgError):
    """The LLM could not be reached or gave no usable answer after the retries."""


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
        )


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # the raw JSON string the model produced

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as a dict; malformed JSON or a non-object raises ``ValueError``."""
        value = json.loads(self.arguments or "{}")
        if not isinstance(value, dict):
            raise ValueError("tool arguments are not a JSON object")
        return value

    def as_message(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class LLMResponse:
    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    model: str = ""

    def as_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation (tool calls included)."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [c.as_message() for c in self.tool_calls]
        return message


@runtime_checkable
class LLMClient(Protocol):
    @property
    def model(self) -> str: ...

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        json_mode: bool = False,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> LLMResponse: ...


class OpenAIChatClient:
    """Chat completions against any OpenAI-compatible server (OpenAI, vLLM, Ollama, LM Studio)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout_s: float = 60.0,
        max_retries: int = 4,
        temperature: float = 0.0,
        *,
        backoff_s: float = 0.5,
    ) -> None:
        self._base_url = base_url
        self._model = model
        # Local servers take no key, but the SDK refuses to build a client without one.
        self._api_key = api_key or "not-needed"
        self._timeout_s = timeout_s
        self._max_retries = max(0, max_retries)
        self._temperature = temperature
        self._backoff_s = max(0.0, backoff_s)
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return self._model

    @property
    def temperature(self) -> float:
        return self._temperature

    def __repr__(self) -> str:  # never show the key
        return f"OpenAIChatClient(base_url={self._base_url!r}, model={self._model!r})"

    def _sdk(self) -> Any:
        with self._lock:
            if self._client is None:
                try:
                    import openai
                except ImportError as exc:  # pragma: no cover - a dependency of the package
                    raise LLMError("the openai package is not installed") from exc
                self._client = openai.OpenAI(
                    base_url=self._base_url,
                    api_key=self._api_key,
                    timeout=self._timeout_s,
                    max_retries=0,
                )
            return self._client

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        json_mode: bool = False,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> LLMResponse:
        import openai

        client = self._sdk()
        request: dict[str, Any] = {
            "model": self._model,
            "messages": messages,
            "temperature": self._temperature if temperature is None else temperature,
        }
        if tools:
            request["tools"] = tools
        if json_mode:
            request["response_format"] = {"type": "json_object"}
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        last: Exception | None = None
        for attempt in range(self._max_retries + 1):
            try:
                completion = client.chat.completions.create(**request)
                return _to_response(completion, self._model)
            except openai.APIStatusError as exc:
                last = exc
                if exc.status_code != 429 and exc.status_code < 500:
                    raise LLMError(f"LLM request refused ({exc.status_code}): {exc}") from exc
                wait = _retry_after(exc)
            except (openai.APITimeoutError, openai.APIConnectionError) as exc:
                last, wait = exc, None
            except (openai.APIResponseValidationError, ValueError, TypeError) as exc:
                # A body that is not a chat completion: often a proxy hiccup, so retried too.
                last, wait = exc, None
            if attempt == self._max_retries:
                break
            if wait is None:
                wait = self._backoff_s * (2**attempt)
            if wait > MAX_RETRY_AFTER_S:
                break
            time.sleep(wait)
        raise LLMError(
            f"LLM request failed after {self._max_retries + 1} attempt(s): {last}"
        ) from last


def _retry_after(exc: Any) -> float | None:
    response = getattr(exc, "response", None)
    header = response.headers.get("retry-after") if response is not None else None
    if header is None:
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff


def _to_response(completion: Any, model: str) -> LLMResponse:
    choices = getattr(completion, "choices", None)
    if not choices:
        raise ValueError("the completion has no choices")
    message = choices[0].message
    calls = [
        ToolCall(str(c.id), str(c.function.name), str(c.function.arguments or "{}"))
        for c in (message.tool_calls or [])
        if getattr(c, "function", None) is not None
    ]
    usage = getattr(completion, "usage", None)
    return LLMResponse(
        content=message.content,
        tool_calls=calls,
        usage=Usage(
            int(getattr(usage, "prompt_tokens", 0) or 0),
            int(getattr(usage, "completion_tokens", 0) or 0),
        ),
        model=str(getattr(completion, "model", "") or model),
    )


def build_llm(settings: LlmSettings) -> LLMClient | None:
    """The configured LLM client, or None when no base URL and model are set."""
    if not settings.configured:
        return None
    return OpenAIChatClient(
        base_url=settings.base_url,
        model=settings.model,
        api_key=settings.api_key,
        timeout_s=settings.timeout_s,
        temperature=settings.temperature,
    )
