"""Faults of the OpenAI-compatible adapter, against the scripted server (through the real SDK).

Real replies are tested against the real local model in tests/llm/; here only what a real
server will not do on demand: errors, retries, garbage, timeouts and cut-off replies.
"""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from core.errors import LlmBadReply, LlmCutOff, LlmError
from llm import LlmSettings, ask_json
from llm.openai_compat import OpenAICompatClient, build_llm
from tests.fakes.openai_server import FakeOpenAIServer, Reply

MSG = [{"role": "user", "content": "x"}]


class Shape(BaseModel):
    a: int


def client(server: FakeOpenAIServer, **kw: object) -> OpenAICompatClient:
    return OpenAICompatClient(LlmSettings(base_url=server.base_url, model="fake-model", **kw))  # type: ignore[arg-type]


def test_500_is_retried_by_the_sdk_and_every_attempt_is_reported() -> None:
    seen: list[int] = []
    with FakeOpenAIServer([Reply.error(500), Reply.text("ok")]) as s:
        r = client(s, max_retries=1).complete(MSG, max_tokens=10, on_attempt=seen.append)
    assert r.content == "ok" and r.attempts == 2 and seen == [1, 2]
    assert s.count == 2


def test_failure_after_the_retries_says_how_many_attempts() -> None:
    with (
        FakeOpenAIServer([Reply.error(503)] * 2) as s,
        pytest.raises(LlmError, match="2 attempt") as caught,
    ):
        client(s, max_retries=1).complete(MSG, max_tokens=10)
    assert caught.value.attempts == 2 and s.pending == 0


def test_client_error_is_not_retried() -> None:
    with (
        FakeOpenAIServer([Reply.error(400), Reply.text("never")]) as s,
        pytest.raises(LlmError, match="400"),
    ):
        client(s).complete(MSG, max_tokens=10)
    assert s.count == 1


def test_timeout_follows_the_setting_and_is_an_error() -> None:
    with (
        FakeOpenAIServer([Reply(content="late", delay_s=1.5)]) as s,
        pytest.raises(LlmError, match="timed out"),
    ):
        client(s, timeout_s=0.3, max_retries=0).complete(MSG, max_tokens=10)


def test_cut_off_reply_is_its_own_error_and_carries_its_tokens() -> None:
    with (
        FakeOpenAIServer([Reply.cut_off(tokens=64)]) as s,
        pytest.raises(LlmCutOff, match="cap of 64") as caught,
    ):
        ask_json(client(s), MSG, Shape, max_tokens=64)
    assert caught.value.tokens == (11, 64)
    assert s.count == 1  # never resent under the same cap
    sent = s.requests[0]["response_format"]
    assert sent["type"] == "json_schema" and sent["json_schema"]["schema"]["required"] == ["a"]


def test_reply_outside_the_schema_is_a_bad_reply_not_repaired() -> None:
    with (
        FakeOpenAIServer([Reply.text('{"b": 1}'), Reply.text('{"a": 1}')]) as s,
        pytest.raises(LlmBadReply, match="Shape"),
    ):
        ask_json(client(s), MSG, Shape, max_tokens=20)
    assert s.count == 1


def test_garbage_body_is_an_error() -> None:
    with FakeOpenAIServer([Reply.malformed()] * 2) as s, pytest.raises(LlmError):
        client(s, max_retries=0).complete(MSG, max_tokens=10)


def test_timeouts_follow_the_servers_speed() -> None:
    cfg = LlmSettings(read_tokens_per_s=50, write_tokens_per_s=10, timeout_floor_s=5)
    assert cfg.timeout_for(prompt_chars=3500, max_tokens=100) == pytest.approx(5 + 2 * (20 + 10))
    assert LlmSettings(timeout_s=7).timeout_for(10**6, 10**4) == 7


def test_build_llm_needs_url_and_model_and_hides_the_key() -> None:
    assert build_llm(LlmSettings()) is None
    assert build_llm(LlmSettings(base_url="http://x/v1")) is None
    llm = build_llm(LlmSettings(base_url="http://x/v1", model="m", api_key="sk-secret"))
    assert llm is not None and llm.model == "m"
    assert "sk-secret" not in repr(llm)
