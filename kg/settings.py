"""Settings, read once from the environment (``KG_`` prefix, nested with ``__``) or ``.env``.

The composition root's one job here: each package owns its settings model (``<package>/config.py``);
this assembles them under their environment prefixes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict

from agents.config import AgentSettings
from api.config import ApiSettings
from extraction.config import ChunkingSettings, ExtractionSettings, IngestSettings
from extraction.sync_config import SyncSettings
from graph_store.config import FalkorDBSettings, Neo4jSettings
from kg.llm_server import LlmServerSettings
from kg.neo4j_server import Neo4jServerSettings
from llm.config import LlmSettings
from retrieval.config import EmbeddingSettings, RetrievalSettings


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="KG_",
        env_nested_delimiter="__",
        env_file=".env",
        extra="ignore",
    )

    data_dir: Path = Path(".kg")
    # "embedded" is Kùzu; "falkordb" the FalkorDB server this process owns (measured against
    # Kùzu in docs/decisions/embedded-store.md); "neo4j" the production store.
    store: Literal["embedded", "falkordb", "neo4j"] = "embedded"
    embedding: EmbeddingSettings = EmbeddingSettings()
    chunking: ChunkingSettings = ChunkingSettings()
    ingest: IngestSettings = IngestSettings()
    neo4j: Neo4jSettings = Neo4jSettings()
    falkordb: FalkorDBSettings = FalkorDBSettings()
    # The local server `kg neo4j start` runs from the Maven-resolved jars (no Docker needed).
    neo4j_server: Neo4jServerSettings = Neo4jServerSettings()
    llm: LlmSettings = LlmSettings()
    # The local server `kg llm serve` starts (KG_LLM_SERVER__*).
    llm_server: LlmServerSettings = LlmServerSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    extraction: ExtractionSettings = ExtractionSettings()
    agent: AgentSettings = AgentSettings()
    sync: SyncSettings = SyncSettings()
    api: ApiSettings = ApiSettings()
    # Comma-separated; when set, every API route except health needs ``X-API-Key``.
    api_keys: str = ""

    @property
    def embedded_path(self) -> Path:
        return self.data_dir / "graph.kuzu"

    @property
    def falkordb_path(self) -> Path:
        """The FalkorDB server's directory: its append-only file, socket, pid and lock."""
        return self.data_dir / "graph.falkordb"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
