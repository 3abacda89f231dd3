"""HTTP API settings (``KG_API__*``).

API keys are the top-level ``KG_API_KEYS`` (assembled by the shell's settings).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field, field_validator
from pydantic_settings import NoDecode

# tools/explorer/node_modules of a source checkout, where `make setup` runs `npm ci`.
_CHECKOUT_NODE_MODULES = Path(__file__).resolve().parent.parent / "tools/explorer/node_modules"


class ApiSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    # Folders whose files POST /v1/ingest may read (comma-separated in the environment).
    # Empty disables server-side ingest: a client must not make the server read arbitrary files.
    ingest_roots: Annotated[list[Path], NoDecode] = Field(default_factory=list)
    # Whole request bodies above this are refused with 413 before they are read into memory.
    max_request_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)
    # One uploaded file above this is refused with 413 (the loaders have their own, larger
    # KG_INGEST__MAX_FILE_BYTES for files read from disk).
    max_upload_bytes: int = Field(default=20 * 1024 * 1024, ge=1)
    # Upper bounds that keep one request from reading the whole graph.
    max_page_size: int = Field(default=500, ge=1)
    max_cypher_rows: int = Field(default=1000, ge=1)
    # Where `npm ci` put the explorer's browser packages (cytoscape).
    explorer_node_modules: Path = _CHECKOUT_NODE_MODULES

    @field_validator("ingest_roots", mode="before")
    @classmethod
    def _split_roots(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value
