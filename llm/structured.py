"""Structured steps: a JSON schema derived from a pydantic model, parsed by that model.

The schema goes to the server as ``response_format`` ``json_schema``; llama.cpp's server turns
it into a grammar, so the reply cannot leave the shape. There is no "strip the fence, repair
once" loop: a reply that still does not validate is an ``LlmBadReply``, a cut-off one an
``LlmCutOff``, and the caller falls back.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from core.errors import LlmBadReply
from llm.port import LlmClient, LlmReply, OnAttempt

M = TypeVar("M", bound=BaseModel)


@lru_cache(maxsize=64)
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return {"name": model.__name__, "strict": True, "schema": model.model_json_schema()}


def response_format(model: type[BaseModel]) -> dict[str, Any]:
    """The ``json_schema`` object for ``model`` (name, strict, schema)."""
    return _schema(model)


def parse(reply: LlmReply, model: type[M]) -> M:
    try:
        return model.model_validate_json(reply.content)
    except ValidationError as exc:
        first = str(exc).splitlines()
        raise LlmBadReply(
            f"the reply does not match {model.__name__}: {' '.join(first[:3])[:300]}",
            reply.attempts,
            (reply.usage.prompt_tokens, reply.usage.completion_tokens),
        ) from exc


def ask_json(
    client: LlmClient,
    messages: list[dict[str, Any]],
    model: type[M],
    *,
    max_tokens: int,
    temperature: float | None = None,
    on_attempt: OnAttempt | None = None,
) -> tuple[M, LlmReply]:
    reply = client.complete(
        messages,
        max_tokens=max_tokens,
        json_schema=response_format(model),
        temperature=temperature,
        on_attempt=on_attempt,
    )
    return parse(reply, model), reply
