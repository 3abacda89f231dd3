"""LLM settings (``KG_LLM__*``): any OpenAI-compatible chat server."""

from __future__ import annotations

from pydantic import BaseModel


class LlmSettings(BaseModel):
    base_url: str = ""
    model: str = ""
    api_key: str = ""
    temperature: float = 0.0
    timeout_s: float = 60.0

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)
