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
from graph_store.config import Neo4jSettings
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
    store: Literal["embedded", "neo4j"] = "embedded"
    spacy_model: str = ""
    embedding: EmbeddingSettings = EmbeddingSettings()
    chunking: ChunkingSettings = ChunkingSettings()
    ingest: IngestSettings = IngestSettings()
    neo4j: Neo4jSettings = Neo4jSettings()
    # The local server `kg neo4j start` runs from the Maven-resolved jars (no Docker needed).
    neo4j_server: Neo4jServerSettings = Neo4jServerSettings()
    llm: LlmSettings = LlmSettings()
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


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
