"""HTTP API settings (``KG_API__*``)."""

from __future__ import annotations

from pydantic import BaseModel


class ApiSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = 8000
