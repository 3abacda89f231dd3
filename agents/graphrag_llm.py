"""Our ``LLMClient`` behind neo4j-graphrag's LLM interface, so its components use our LLM.

neo4j-graphrag 1.22 has two call shapes, both served here: v1 ``invoke(input: str,
message_history, system_instruction)`` and v2 ``invoke(input: list[LLMMessage],
response_format=...)``; ``invoke_with_tools`` turns its ``Tool`` objects into function specs.
Retries and backoff stay in our client, so the library's rate-limit handler is bypassed (our
``LLMError`` is re-raised as the library's ``LLMGenerationError``, which its components expect).

neo4j-graphrag is imported by this module only; import the module where the adapter is needed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from neo4j_graphrag.exceptions import LLMGenerationError
from neo4j_graphrag.llm.base import LLMBase
from neo4j_graphrag.llm.types import LLMResponse as GraphRagResponse
from neo4j_graphrag.llm.types import LLMUsage, ToolCallResponse
from neo4j_graphrag.llm.types import ToolCall as GraphRagToolCall
from neo4j_graphrag.message_history import MessageHistory
from neo4j_graphrag.tool import Tool
from neo4j_graphrag.types import LLMMessage
from pydantic import BaseModel

from agents.llm import LLMClient, LLMError, LLMResponse


class GraphRagLLM(LLMBase):
    """A neo4j-graphrag LLM backed by any ``LLMClient``."""

    def __init__(self, client: LLMClient, model_params: dict[str, Any] | None = None) -> None:
        super().__init__(model_name=client.model, model_params=model_params or {})
        self._client = client

    def invoke(
        self,
        input: str | list[LLMMessage],
        message_history: list[LLMMessage] | MessageHistory | None = None,
        system_instruction: str | None = None,
        response_format: type[BaseModel] | dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> GraphRagResponse:
        if isinstance(input, str):
            messages = _v1_messages(input, message_history, system_instruction)
        else:
            messages = [{"role": m["role"], "content": m["content"]} for m in input]
        response = self._call(messages, json_mode=response_format is not None)
        return GraphRagResponse(content=response.content or "", usage=_usage(response))

    async def ainvoke(
        self,
        input: str | list[LLMMessage],
        message_history: list[LLMMessage] | MessageHistory | None = None,
        system_instruction: str | None = None,
        response_format: type[BaseModel] | dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> GraphRagResponse:
        # Our client is synchronous; a worker thread keeps the event loop free.
        return await asyncio.to_thread(
            self.invoke, input, message_history, system_instruction, response_format
        )

    def invoke_with_tools(
        self,
        input: str,
        tools: Sequence[Tool],
        message_history: list[LLMMessage] | MessageHistory | None = None,
        system_instruction: str | None = None,
    ) -> ToolCallResponse:
        specs = [
            {
                "type": "function",
                "function": {
                    "name": t.get_name(),
                    "description": t.get_description(),
                    "parameters": t.get_parameters(),
                },
            }
            for t in tools
        ]
        messages = _v1_messages(input, message_history, system_instruction)
        response = self._call(messages, tools=specs)
        calls = []
        for call in response.tool_calls:
            try:
                calls.append(GraphRagToolCall(name=call.name, arguments=call.parsed_arguments()))
            except ValueError as exc:
                raise LLMGenerationError(f"tool call {call.name}: {exc}") from exc
        return ToolCallResponse(tool_calls=calls, content=response.content)

    async def ainvoke_with_tools(
        self,
        input: str,
        tools: Sequence[Tool],
        message_history: list[LLMMessage] | MessageHistory | None = None,
        system_instruction: str | None = None,
    ) -> ToolCallResponse:
        return await asyncio.to_thread(
            self.invoke_with_tools, input, tools, message_history, system_instruction
        )

    def _call(self, messages: list[dict[str, Any]], **kw: Any) -> LLMResponse:
        params = self.model_params
        try:
            return self._client.chat(
                messages,
                temperature=params.get("temperature"),
                max_tokens=params.get("max_tokens"),
                **kw,
            )
        except LLMError as exc:
            raise LLMGenerationError(str(exc)) from exc


def _v1_messages(
    input: str,
    history: list[LLMMessage] | MessageHistory | None,
    system_instruction: str | None,
) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    if system_instruction:
        messages.append({"role": "system", "content": system_instruction})
    past = history.messages if isinstance(history, MessageHistory) else (history or [])
    messages.extend({"role": m["role"], "content": m["content"]} for m in past)
    messages.append({"role": "user", "content": input})
    return messages


def _usage(response: LLMResponse) -> LLMUsage:
    u = response.usage
    return LLMUsage(
        request_tokens=u.prompt_tokens,
        response_tokens=u.completion_tokens,
        total_tokens=u.total_tokens,
    )
