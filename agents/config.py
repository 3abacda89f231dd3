"""Agent-loop settings (``KG_AGENT__*``); every limit the loop uses is named here."""

from __future__ import annotations

from pydantic import BaseModel, Field


class AgentSettings(BaseModel):
    max_iterations: int = Field(default=3, ge=1, le=10)
