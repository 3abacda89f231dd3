"""Our LLM behind neo4j-graphrag's interface, against the scripted server."""

from __future__ import annotations

import asyncio

import pytest
from neo4j_graphrag.exceptions import LLMGenerationError
from neo4j_graphrag.tool import NumberParameter, ObjectParameter, Tool

from agents.graphrag_llm import GraphRagLLM
from agents.llm import OpenAIChatClient
from tests.fakes.openai_server import FakeOpenAIServer, Reply


def adapter(server: FakeOpenAIServer) -> GraphRagLLM:
    client = OpenAIChatClient(server.base_url, "fake-model", max_retries=0)
    return GraphRagLLM(client, model_params={"temperature": 0.3})


def test_v1_invoke_builds_system_history_and_user_messages() -> None:
    with FakeOpenAIServer([Reply.text("v1 answer", prompt_tokens=5, completion_tokens=2)]) as s:
        r = adapter(s).invoke(
            "question?",
            message_history=[{"role": "user", "content": "earlier"}],
            system_instruction="be brief",
        )
    assert r.content == "v1 answer"
    assert r.usage is not None and r.usage.total_tokens == 7
    assert [m["role"] for m in s.requests[0]["messages"]] == ["system", "user", "user"]
    assert s.requests[0]["temperature"] == 0.3


def test_v2_invoke_with_response_format_asks_for_json() -> None:
    with FakeOpenAIServer([Reply.json({"nodes": []})]) as s:
        r = adapter(s).invoke([{"role": "user", "content": "extract"}], response_format={"x": 1})
    assert r.content == '{"nodes": []}'
    assert s.requests[0]["response_format"] == {"type": "json_object"}


def test_async_invoke() -> None:
    with FakeOpenAIServer(["async answer"]) as s:
        r = asyncio.run(adapter(s).ainvoke("q"))
    assert r.content == "async answer"


def test_invoke_with_tools_round_trip() -> None:
    tool = Tool(
        name="double",
        description="double a number",
        execute_func=lambda x: 2 * x,
        parameters=ObjectParameter(
            description="args", properties={"x": NumberParameter(description="n")}
        ),
    )
    with FakeOpenAIServer([Reply.tool("double", {"x": 21})]) as s:
        r = adapter(s).invoke_with_tools("double 21", [tool])
    assert [(c.name, c.arguments) for c in r.tool_calls] == [("double", {"x": 21})]
    assert s.requests[0]["tools"][0]["function"]["name"] == "double"


def test_failure_becomes_the_library_error() -> None:
    with FakeOpenAIServer([Reply.error(503)]) as s, pytest.raises(LLMGenerationError):
        adapter(s).invoke("q")
