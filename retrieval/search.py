"""Retrieval presets over the graph store: ``dense``, ``hybrid`` and ``graph`` (default).

``dense`` is vector kNN from the store's index; ``hybrid`` fuses it with BM25 full-text by
RRF; ``graph`` adds entity linking, personalized PageRank, authority and relation paths
(graph_search.py). Every result keeps its component scores and the path that brought it in;
metadata filters apply to every preset.
"""

from __future__ import annotations

import copy

import numpy as np

from core.errors import ConfigError, FulltextUnavailable
from graph_store import ChunkHit, GraphStore
from graph_store.read_model import GraphReadModel
from retrieval.config import RetrievalSettings
from retrieval.embedder import Embedder
from retrieval.filters import SearchFilters
from retrieval.fusion import rrf
from retrieval.graph_search import graph_search
from retrieval.parallel import Reads
from retrieval.read_model import InMemoryReadModel
from retrieval.search_types import Retrieval, SearchResult
from retrieval.topology_model import TopologyReadModel

PRESETS: tuple[str, ...] = ("dense", "hybrid", "graph")


class Searcher:
    """Thread-safe. The graph preset asks the read model (graph_search.py): in memory, one
    projection per graph version; on Neo4j, the database per question."""

    def __init__(
        self,
        store: GraphStore,
        embedder: Embedder,
        settings: RetrievalSettings,
        model: GraphReadModel | None = None,
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._model: GraphReadModel = model or InMemoryReadModel.from_settings(store, settings)

    @property
    def settings(self) -> RetrievalSettings:
        return self._settings

    @property
    def model(self) -> GraphReadModel:
        """The read model the graph preset (and the agent loop) asks of the graph."""
        return self._model

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
        if preset == "graph":
            # The topology model's pin reads the graph version while the question embeds and
            # the first reads run; the in-memory one takes its index of now, no read.
            pinned = self._graph_model()
            vector = self._vector(question)
            return graph_search(question, vector, k, pinned, self._settings, filters)
        vector = self._vector(question)
        # dense and hybrid read the store's indexes; the in-memory index only for filters
        model = self._pin() if filters is not None and filters.active else None
        return Retrieval(preset, self._flat(question, vector, k, preset, filters, model))

    def _vector(self, question: str) -> np.ndarray:
        return np.asarray(self._embedder.embed([question])[0], dtype=np.float32)

    def _graph_model(self) -> GraphReadModel:
        """The model one graph search reads from its first read to its last: the in-memory
        model's index of now, the topology model's topology of now (its walk and paths)."""
        if isinstance(self._model, TopologyReadModel):
            return self._model.pinned(Reads(self._settings.parallel_reads))
        if isinstance(self._model, InMemoryReadModel):
            return self._model.pinned()
        return self._model

    def _pin(self) -> InMemoryReadModel | None:
        """The in-memory model on one graph version from a search's first read to its last,
        whatever commits meanwhile; None for another read model."""
        return self._model.pinned() if isinstance(self._model, InMemoryReadModel) else None

    def pinned(self) -> Searcher:
        """This searcher on one graph version (the in-memory read model's index of now, the
        topology model's topology of now), for a caller that retrieves several times and
        must not meet two versions."""
        if not isinstance(self._model, InMemoryReadModel | TopologyReadModel):
            return self
        # A copy, not a new Searcher: a subclass (or a wrapper's state) stays what it was.
        twin = copy.copy(self)
        twin._model = self._model.pinned()
        return twin

    def _flat(
        self,
        question: str,
        vector: np.ndarray,
        k: int,
        preset: str,
        filters: SearchFilters | None,
        model: InMemoryReadModel | None,
    ) -> list[SearchResult]:
        active = filters is not None and filters.active
        # Full-text filters apply after the search, so ask for more when some will be dropped.
        pool = max(4 * k, 20)
        dense = self._dense(vector, pool, filters, model)
        if preset == "dense":
            return [_result(h, h.score, {"dense": h.score}) for h in dense[:k]]
        lexical = self._keep(
            self._lexical(question, pool * (5 if active else 1), model), filters, model
        )
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

    def _dense(
        self,
        vector: np.ndarray,
        k: int,
        filters: SearchFilters | None,
        model: InMemoryReadModel | None,
    ) -> list[ChunkHit]:
        """The ``k`` nearest chunks that pass the filters. The store's vector index is an
        approximate walk that knows no metadata: filtering its top n can keep nothing (a type
        that holds 3 chunks of 500, none of them among the nearest 100, or a walk that missed
        them). With the in-memory index the filtered ranking is exact; otherwise the kNN is
        widened until ``k`` pass or the index has nothing more to give."""
        if filters is None or not filters.active:
            return self._store.vector_search_chunks(vector.tolist(), k)
        if model is not None:
            return _exact_dense(model, vector, k, filters)
        n = 5 * k
        while True:
            hits = self._store.vector_search_chunks(vector.tolist(), n)
            kept = self._keep(hits, filters, None)
            if len(kept) >= k or len(hits) < n:
                return kept[:k]
            n *= 4

    def _lexical(self, question: str, k: int, model: InMemoryReadModel | None) -> list[ChunkHit]:
        """The store's full-text hits; while another thread's write rebuilds that index, BM25
        over the in-memory index of the last committed version (the search's pinned one), not
        a wait for the write nor a search without its lexical half."""
        try:
            return self._store.fulltext_chunks(question, k)
        except FulltextUnavailable:
            pinned = model or self._pin()
            return pinned.lexical_hits(question, k) if pinned is not None else []

    def _keep(
        self,
        hits: list[ChunkHit],
        filters: SearchFilters | None,
        model: InMemoryReadModel | None,
    ) -> list[ChunkHit]:
        if filters is None or not filters.active:
            return hits
        if model is None:
            # The store's indexes know no metadata: ask for the hits' documents' metadata.
            meta = self._model.chunk_details([h.chunk_id for h in hits])
            return [
                h
                for h in hits
                if (m := meta.get(h.chunk_id)) is not None
                and filters.accepts(m.source, m.doc_type, m.date)
            ]
        docs = model.index().docs
        return [
            h
            for h in hits
            if (doc := docs.get(h.doc_id)) is not None
            and filters.accepts(doc.source, doc.doc_type, doc.date)
        ]


def _result(hit: ChunkHit, score: float, components: dict[str, float]) -> SearchResult:
    return SearchResult(hit.chunk_id, hit.doc_id, hit.doc_title, hit.text, score, components)


def _exact_dense(
    model: InMemoryReadModel, vector: np.ndarray, k: int, filters: SearchFilters
) -> list[ChunkHit]:
    """Cosine kNN over the chunks of this version's documents that pass the filters."""
    index = model.index()
    passing = {
        doc
        for doc, meta in index.docs.items()
        if filters.accepts(meta.source, meta.doc_type, meta.date)
    }
    mask = np.fromiter((d in passing for d in index.chunk_docs), bool, len(index.chunk_docs))
    if not mask.any():
        return []
    scores = index.dense_scores(vector)
    where = np.flatnonzero(mask)
    order = where[np.argsort(-scores[where], kind="stable")[:k]]
    ids = [index.chunk_ids[i] for i in order]
    details = model.chunk_details(ids)
    return [
        ChunkHit(c, d.doc_id, d.doc_title, d.text, float(scores[i]), d.index)
        for c, i in zip(ids, order, strict=True)
        if (d := details.get(c)) is not None
    ]
