"""Settings, read once from the environment (``KG_`` prefix, nested with ``__``) or ``.env``.

The composition root's one job here: each package owns its settings model (``<package>/config.py``);
this assembles them under their environment prefixes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from agents.config import AgentSettings
from api.config import ApiSettings
from core.errors import ConfigError
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
    # KG_PROFILE: the agent's named preset (agents.config.PROFILES); KG_AGENT__* still win.
    profile: str = ""

    @model_validator(mode="before")
    @classmethod
    def _agent_profile(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("profile"):
            agent = data.get("agent") or {}
            if isinstance(agent, dict):
                return {**data, "agent": {"profile": data["profile"], **agent}}
        return data

    @property
    def embedded_path(self) -> Path:
        return self.data_dir / "graph.kuzu"

    @property
    def falkordb_path(self) -> Path:
        """The FalkorDB server's directory: its append-only file, socket, pid and lock."""
        return self.data_dir / "graph.falkordb"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once; an invalid value is a ``ConfigError`` naming the
    variable, its value and what it may be (pydantic's own report is a page of traceback)."""
    try:
        return Settings()
    except ValidationError as exc:
        raise ConfigError(describe_invalid(exc)) from exc
    except SettingsError as exc:  # a value that is not even JSON where JSON is expected
        raise ConfigError(f"invalid setting: {exc}") from exc


def describe_invalid(exc: ValidationError) -> str:
    """``invalid setting KG_STORE='neo5j': Input should be 'embedded', 'falkordb' or 'neo4j'``, the
    problems joined on one line."""
    problems = []
    for e in exc.errors():
        loc = [str(p) for p in e.get("loc", ())]
        name = "KG_" + "__".join(loc).upper() if loc else "settings"
        value = e.get("input")
        given = f"={value!r}" if isinstance(value, str | int | float) else ""
        problems.append(f"{name}{given}: {e.get('msg', 'invalid')}")
    return "invalid setting " + "; ".join(problems)
