"""The product's one LLM client: a port, an OpenAI-compatible adapter, structured replies.

Imports only ``core``; retrieval, extraction and agents use it, and the shell builds it.
"""

from core.errors import LlmBadReply, LlmCutOff, LlmError
from llm.config import LlmSettings
from llm.port import LlmClient, LlmReply, Usage
from llm.structured import ask_json, response_format

__all__ = [
    "LlmBadReply",
    "LlmClient",
    "LlmCutOff",
    "LlmError",
    "LlmReply",
    "LlmSettings",
    "Usage",
    "ask_json",
    "response_format",
]
