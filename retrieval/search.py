"""Retrieval presets over the graph store: ``dense``, ``hybrid`` and ``graph`` (default).

``dense`` is vector kNN from the store's index; ``hybrid`` fuses it with BM25 full-text by
RRF; ``graph`` adds entity linking, personalized PageRank, authority and relation paths
(graph_search.py). Every result keeps its component scores and the path that brought it in;
metadata filters apply to every preset.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.errors import ConfigError
from graph_store import ChunkHit, GraphStore
from retrieval.config import RetrievalSettings
from retrieval.embedder import Embedder
from retrieval.filters import SearchFilters
from retrieval.fusion import rrf
from retrieval.graph_index import GraphIndexCache
from retrieval.graph_search import graph_search
from retrieval.linking import LinkedEntity

PRESETS: tuple[str, ...] = ("dense", "hybrid", "graph")


@dataclass(frozen=True)
class SearchResult:
    chunk_id: str
    doc_id: str
    doc_title: str
    text: str
    score: float
    components: dict[str, float] = field(default_factory=dict)
    path: list[str] = field(default_factory=list)
    tokens: int = 0

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


@dataclass
class Retrieval:
    """Results plus what the graph preset learnt about the question on the way."""

    preset: str
    results: list[SearchResult] = field(default_factory=list)
    linked: list[LinkedEntity] = field(default_factory=list)
    bridges: list[tuple[str, str]] = field(default_factory=list)  # (entity id, name)

    def as_dict(self) -> dict[str, object]:
        return {
            "preset": self.preset,
            "results": [r.as_dict() for r in self.results],
            "linked_entities": [x.as_dict() for x in self.linked],
            "bridge_entities": [{"entity_id": i, "name": n} for i, n in self.bridges],
        }


class Searcher:
    """Thread-safe; the graph preset's in-memory index is rebuilt after any write."""

    def __init__(self, store: GraphStore, embedder: Embedder, settings: RetrievalSettings) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._cache = GraphIndexCache(store)

    @property
    def store(self) -> GraphStore:
        return self._store

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    def search(
        self,
        question: str,
        k: int = 5,
        preset: str | None = None,
        filters: SearchFilters | None = None,
    ) -> list[SearchResult]:
        return self.retrieve(question, k, preset, filters).results

    def retrieve(
        self,
        question: str,
        k: int = 5,
        preset: str | None = None,
        filters: SearchFilters | None = None,
    ) -> Retrieval:
        preset = preset or self._settings.preset
        if preset not in PRESETS:
            raise ConfigError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        if not question.strip() or k <= 0:
            return Retrieval(preset)
        vector = np.asarray(self._embedder.embed([question])[0], dtype=np.float32)
        if preset == "graph":
            return self._graph(question, vector, k, filters)
        return Retrieval(preset, self._flat(question, vector, k, preset, filters))

    def _flat(
        self,
        question: str,
        vector: np.ndarray,
        k: int,
        preset: str,
        filters: SearchFilters | None,
    ) -> list[SearchResult]:
        active = filters is not None and filters.active
        # Filters apply after kNN, so ask for more when some candidates will be dropped.
        pool = max(4 * k, 20) * (5 if active else 1)
        dense = self._keep(self._store.vector_search_chunks(vector.tolist(), pool), filters)
        if preset == "dense":
            return [_result(h, h.score, {"dense": h.score}) for h in dense[:k]]
        lexical = self._keep(self._store.fulltext_chunks(question, pool), filters)
        hits: dict[str, ChunkHit] = {h.chunk_id: h for h in (*lexical, *dense)}
        fused = rrf(
            [[h.chunk_id for h in dense], [h.chunk_id for h in lexical]], self._settings.rrf_k
        )
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

    def _keep(self, hits: list[ChunkHit], filters: SearchFilters | None) -> list[ChunkHit]:
        if filters is None or not filters.active:
            return hits
        docs = self._cache.get().docs
        return [
            h
            for h in hits
            if (m := docs.get(h.doc_id)) is not None
            and filters.accepts(m.source, m.doc_type, m.date)
        ]

    def _graph(
        self, question: str, vector: np.ndarray, k: int, filters: SearchFilters | None
    ) -> Retrieval:
        index = self._cache.get()
        outcome = graph_search(question, vector, k, index, self._store, self._settings, filters)
        ids = [index.chunk_ids[h.chunk_index] for h in outcome.hits]
        # The index holds this graph version's texts: no store round trip for the results.
        chunks = (
            {ids[i]: index.chunk_hit(h.chunk_index) for i, h in enumerate(outcome.hits)}
            if index.chunk_texts
            else {c.chunk_id: c for c in self._store.get_chunks(ids)}
        )
        results = []
        for h in outcome.hits:
            c = chunks.get(index.chunk_ids[h.chunk_index])
            if c is not None:
                tokens = index.chunk_tokens[h.chunk_index]
                results.append(
                    SearchResult(
                        c.chunk_id,
                        c.doc_id,
                        c.doc_title,
                        c.text,
                        h.score,
                        h.components,
                        h.path,
                        tokens,
                    )
                )
        return Retrieval("graph", results, outcome.linked, outcome.bridges)


def _result(hit: ChunkHit, score: float, components: dict[str, float]) -> SearchResult:
    return SearchResult(hit.chunk_id, hit.doc_id, hit.doc_title, hit.text, score, components)
