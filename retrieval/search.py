"""Chunk search presets over the graph store.

``dense`` is vector kNN; ``hybrid`` fuses vector kNN with BM25 full-text by RRF. Every result
keeps its component scores so callers can see why it ranked where it did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from graph_store import ChunkHit, GraphStore
from kg.errors import ConfigError
from kg.settings import RetrievalSettings
from retrieval.embedder import Embedder
from retrieval.fusion import rrf

Preset = Literal["dense", "hybrid"]
PRESETS: tuple[Preset, ...] = ("dense", "hybrid")


@dataclass(frozen=True)
class SearchResult:
    chunk_id: str
    doc_id: str
    doc_title: str
    text: str
    score: float
    components: dict[str, float] = field(default_factory=dict)
    path: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "chunk_id": self.chunk_id,
            "doc_id": self.doc_id,
            "document_title": self.doc_title,
            "text": self.text,
            "score": self.score,
            "components": self.components,
            "path": self.path,
        }


class Searcher:
    def __init__(self, store: GraphStore, embedder: Embedder, settings: RetrievalSettings) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._rrf_k = settings.rrf_k

    def search(self, question: str, k: int = 5, preset: str | None = None) -> list[SearchResult]:
        preset = preset or self._settings.preset
        if preset not in PRESETS:
            raise ConfigError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        if not question.strip():
            return []
        pool = max(4 * k, 20)
        vector = self._embedder.embed([question])[0]
        dense = self._store.vector_search_chunks(vector, pool)
        if preset == "dense":
            return [_result(h, h.score, {"dense": h.score}) for h in dense[:k]]
        lexical = self._store.fulltext_chunks(question, pool)
        hits: dict[str, ChunkHit] = {h.chunk_id: h for h in (*lexical, *dense)}
        fused = rrf([[h.chunk_id for h in dense], [h.chunk_id for h in lexical]], self._rrf_k)
        dense_s = {h.chunk_id: h.score for h in dense}
        bm25_s = {h.chunk_id: h.score for h in lexical}
        ranked = sorted(fused.items(), key=lambda kv: -kv[1])[:k]
        return [
            _result(
                hits[cid],
                score,
                {"rrf": score, "dense": dense_s.get(cid, 0.0), "bm25": bm25_s.get(cid, 0.0)},
            )
            for cid, score in ranked
        ]


def _result(hit: ChunkHit, score: float, components: dict[str, float]) -> SearchResult:
    return SearchResult(hit.chunk_id, hit.doc_id, hit.doc_title, hit.text, score, components)
