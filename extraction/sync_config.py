"""Scheduled sync settings (``KG_SYNC__DIRS``, ``KG_SYNC__EVERY``)."""

from __future__ import annotations

from pydantic import BaseModel


class SyncSettings(BaseModel):
    dirs: str = ""
    every: str = ""
