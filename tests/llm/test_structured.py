"""Schema-constrained replies from the real model, and the cut-off guard."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from core.errors import LlmCutOff
from llm import ask_json
from llm.openai_compat import OpenAICompatClient


class Colour(BaseModel):
    name: Literal["red", "green", "blue"]
    reasons: list[str] = Field(max_length=2)


def test_reply_is_held_to_the_pydantic_schema(client: OpenAICompatClient) -> None:
    messages = [{"role": "user", "content": "What colour is grass? Answer in JSON."}]
    value, reply = ask_json(client, messages, Colour, max_tokens=120)
    assert value.name in ("red", "green", "blue") and len(value.reasons) <= 2
    assert reply.finish_reason == "stop" and reply.attempts == 1
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0


def test_a_reply_cut_off_by_its_cap_is_an_error_not_a_repair(client: OpenAICompatClient) -> None:
    messages = [{"role": "user", "content": "List twenty reasons grass is green, in JSON."}]
    with pytest.raises(LlmCutOff) as caught:
        ask_json(client, messages, Colour, max_tokens=8)
    assert caught.value.tokens[1] == 8
