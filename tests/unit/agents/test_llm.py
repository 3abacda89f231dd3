"""The OpenAI adapter against the scripted local server, through the real ``openai`` SDK."""

from __future__ import annotations

import time

import pytest

from agents.llm import LLMError, OpenAIChatClient, ToolCall, build_llm
from llm.config import LlmSettings
from tests.fakes.openai_server import FakeOpenAIServer, Reply


def client(server: FakeOpenAIServer, **kw: object) -> OpenAIChatClient:
    return OpenAIChatClient(server.base_url, "fake-model", backoff_s=0.01, **kw)  # type: ignore[arg-type]


def test_good_reply_is_parsed_and_usage_counted() -> None:
    with FakeOpenAIServer([Reply.text("hello there", prompt_tokens=40, completion_tokens=3)]) as s:
        r = client(s).chat([{"role": "user", "content": "hi"}], temperature=0.2, max_tokens=50)
    assert r.content == "hello there"
    assert r.tool_calls == []
    assert (r.usage.prompt_tokens, r.usage.completion_tokens, r.usage.total_tokens) == (40, 3, 43)
    assert r.model == "fake-model"
    body = s.requests[0]
    assert body["messages"] == [{"role": "user", "content": "hi"}]
    assert body["temperature"] == 0.2 and body["max_tokens"] == 50
    assert s.paths == ["/v1/chat/completions"]


def test_json_mode_sets_response_format() -> None:
    with FakeOpenAIServer([Reply.json({"a": 1})]) as s:
        r = client(s).chat([{"role": "user", "content": "x"}], json_mode=True)
    assert r.content == '{"a": 1}'
    assert s.requests[0]["response_format"] == {"type": "json_object"}


def test_429_with_retry_after_then_success() -> None:
    replies = [Reply.error(429, retry_after=0), Reply.text("ok after rate limit")]
    with FakeOpenAIServer(replies) as s:
        r = client(s).chat([{"role": "user", "content": "x"}])
    assert r.content == "ok after rate limit"
    assert s.count == 2


def test_500_raises_llm_error_after_all_retries() -> None:
    with FakeOpenAIServer([Reply.error(500)] * 3) as s:
        started = time.monotonic()
        with pytest.raises(LLMError, match="3 attempt"):
            client(s, max_retries=2).chat([{"role": "user", "content": "x"}])
        elapsed = time.monotonic() - started
    assert s.count == 3
    assert s.pending == 0
    assert elapsed < 5  # 0.01 s, 0.02 s backoff, not the SDK's half-second steps


def test_client_error_is_not_retried() -> None:
    replies = [Reply.error(400), Reply.text("never reached")]
    with FakeOpenAIServer(replies) as s, pytest.raises(LLMError, match="400"):
        client(s).chat([{"role": "user", "content": "x"}])
    assert s.count == 1


def test_malformed_body_is_retried_then_succeeds() -> None:
    with FakeOpenAIServer([Reply.malformed(), Reply.text("fine")]) as s:
        r = client(s).chat([{"role": "user", "content": "x"}])
    assert r.content == "fine"
    assert s.count == 2


def test_tool_call_is_parsed_and_tools_are_sent() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "sum_numbers",
                "description": "add",
                "parameters": {"type": "object", "properties": {"values": {"type": "array"}}},
            },
        }
    ]
    with FakeOpenAIServer([Reply.tool("sum_numbers", {"values": [1, 2.5]})]) as s:
        r = client(s).chat([{"role": "user", "content": "add"}], tools=tools)
    assert r.content is None
    assert len(r.tool_calls) == 1
    call = r.tool_calls[0]
    assert isinstance(call, ToolCall)
    assert call.name == "sum_numbers"
    assert call.parsed_arguments() == {"values": [1, 2.5]}
    assert r.as_message()["tool_calls"][0]["function"]["name"] == "sum_numbers"
    assert s.requests[0]["tools"] == tools


def test_responder_chooses_reply_from_request() -> None:
    def echo(body: dict[str, object]) -> str:
        messages = body["messages"]
        assert isinstance(messages, list)
        return f"echo: {messages[-1]['content']}"

    with FakeOpenAIServer(responder=echo) as s:
        c = client(s)
        assert c.chat([{"role": "user", "content": "one"}]).content == "echo: one"
        assert c.chat([{"role": "user", "content": "two"}]).content == "echo: two"
    assert s.count == 2 and not s.exhausted


def test_exhausted_script_is_reported() -> None:
    with FakeOpenAIServer([]) as s, pytest.raises(LLMError):
        client(s, max_retries=0).chat([{"role": "user", "content": "x"}])
    assert s.exhausted


def test_unreachable_server_raises_llm_error() -> None:
    with FakeOpenAIServer() as s:
        url = s.base_url
    c = OpenAIChatClient(url, "m", max_retries=1, backoff_s=0.01, timeout_s=2)
    with pytest.raises(LLMError):
        c.chat([{"role": "user", "content": "x"}])


def test_build_llm_needs_url_and_model_and_hides_the_key() -> None:
    assert build_llm(LlmSettings()) is None
    assert build_llm(LlmSettings(base_url="http://x/v1")) is None
    llm = build_llm(LlmSettings(base_url="http://x/v1", model="m", api_key="sk-secret"))
    assert llm is not None and llm.model == "m"
    assert "sk-secret" not in repr(llm)


def test_timeout_is_retried() -> None:
    slow = Reply(content="too late", delay_s=1.0)
    with FakeOpenAIServer([slow, Reply.text("in time")]) as s:
        r = client(s, timeout_s=0.3).chat([{"role": "user", "content": "x"}])
    assert r.content == "in time"
    assert s.count == 2
