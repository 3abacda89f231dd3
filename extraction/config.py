"""Extraction settings (``KG_EXTRACTION__*``): the LLM schema and resolution limits."""

from __future__ import annotations

from pydantic import BaseModel


class ExtractionSettings(BaseModel):
    llm_enabled: bool = True
