"""The in-memory read model: the ``GraphReadModel`` port over a projection of the whole graph.

The embedded default, and the fallback where Neo4j has no GDS. One ``GraphIndex`` per graph
version (graph_index.py) holds what every method needs: the PageRank projection, the chunk
and entity embedding matrices, BM25, the alias PhraseMatcher and the relation arrays. The
``graph`` preset (graph_search.py) asks this model through the port like any other, so the
preset and the agents walk one projection with one PageRank and one path search.
"""

from __future__ import annotations

import contextlib
import copy
import threading
from collections.abc import Mapping, Sequence

import numpy as np

from core.errors import FulltextUnavailable
from graph_store import ChunkHit, GraphStore
from graph_store.read_model import (
    AliasMatch,
    Candidates,
    ChunkDetail,
    EntityMatch,
    PathHop,
    ReachKeep,
    ScoredChunk,
)
from retrieval.config import RetrievalSettings
from retrieval.expansion import LastRound, expand, kept_positions, path_hops
from retrieval.graph_index import GraphIndex
from retrieval.index_cache import GraphIndexCache
from retrieval.projection import Projection


class InMemoryReadModel:
    """Thread-safe; rebuilds its index when the store's graph version moves.

    Each method reads the index of the moment it is called, so a caller that makes several
    calls (a search: link entities, walk, look hits up) takes ``pinned()`` first: a model
    that answers every call from one graph version, whatever an ingest commits meanwhile."""

    def __init__(
        self,
        store: GraphStore,
        bm25_k1: float = 1.2,
        bm25_b: float = 0.75,
        walk_tolerance: float = 1e-6,
        walk_prune: float = 0.0,
    ) -> None:
        self._store = store
        self._bm25 = (bm25_k1, bm25_b)
        # the personalized walk's stopping tolerance and pruned share (projection.py)
        self._walk = (walk_tolerance, walk_prune)
        self._cache = GraphIndexCache(store)
        self._lock = threading.Lock()
        # graph version -> entity authority ranks, shared with the pinned copies
        self._percentiles: dict[str, np.ndarray] = {}
        self._pinned: GraphIndex | None = None

    @classmethod
    def from_settings(cls, store: GraphStore, settings: RetrievalSettings) -> InMemoryReadModel:
        return cls(
            store,
            settings.bm25_k1,
            settings.bm25_b,
            walk_tolerance=settings.ppr_tolerance,
            walk_prune=settings.walk_prune,
        )

    @property
    def store(self) -> GraphStore:
        return self._store

    def index(self) -> GraphIndex:
        """The pinned index, else the one for the current graph version."""
        if self._pinned is not None:
            return self._pinned
        return self._cache.get()

    def pinned(self) -> InMemoryReadModel:
        """This model fixed to the index of now: every call of the copy reads that version
        (the copy shares the cache, so refreshing through it refreshes this model too)."""
        if self._pinned is not None:
            return self
        twin = copy.copy(self)
        twin._pinned = self._cache.get()
        return twin

    def writing(self) -> contextlib.AbstractContextManager[None]:
        """Held by an ingest while it writes: readers meanwhile get the last index built
        (index_cache.py) rather than queueing for a new one after every batch."""
        return self._cache.writing()

    def version(self) -> str:
        return self.index().version

    def prepare(self) -> None:
        self.index()

    # --- candidates -------------------------------------------------------------
    def dense_chunks(self, vector: Sequence[float], k: int) -> list[ScoredChunk]:
        index = self.index()
        scores = index.dense_scores(np.asarray(vector, dtype=np.float32))
        top = _top(scores, k)
        return [ScoredChunk(index.chunk_ids[i], index.chunk_docs[i], float(scores[i])) for i in top]

    def lexical_hits(self, question: str, k: int) -> list[ChunkHit]:
        """BM25 over this version's chunk texts as the store's full-text hits (title, text):
        what hybrid search reads while a write rebuilds the store's full-text index."""
        index = self.index()
        if not index.chunk_texts:
            return []
        return [
            ChunkHit(
                index.chunk_ids[i],
                index.chunk_docs[i],
                index.docs[index.chunk_docs[i]].title,
                index.chunk_texts[i],
                s,
                index.chunk_index[i],
            )
            for i, s in self._bm25_top(index, question, k)
        ]

    def lexical_chunks(self, question: str, k: int) -> list[ScoredChunk]:
        index = self.index()
        if index.bm25 is None:
            try:
                hits = self._store.fulltext_chunks(question, k)
            except FulltextUnavailable:  # a write rebuilds it, and this index has no texts
                return []
            return [ScoredChunk(h.chunk_id, h.doc_id, h.score) for h in hits]
        return [
            ScoredChunk(index.chunk_ids[i], index.chunk_docs[i], s)
            for i, s in self._bm25_top(index, question, k)
        ]

    def dense_candidates(self, vector: Sequence[float], k: int) -> Candidates:
        hits = self.dense_chunks(vector, k)
        return Candidates(hits, self.chunk_details([h.chunk_id for h in hits], vector))

    def lexical_candidates(self, question: str, vector: Sequence[float], k: int) -> Candidates:
        hits = self.lexical_chunks(question, k)
        return Candidates(hits, self.chunk_details([h.chunk_id for h in hits], vector))

    def _bm25_top(self, index: GraphIndex, question: str, k: int) -> list[tuple[int, float]]:
        """The ``k`` best chunk positions of ``index`` by BM25, none when it has no BM25."""
        return [] if index.bm25 is None else index.bm25.top(question, k, *self._bm25)

    # --- entity linking inputs ------------------------------------------------------
    def alias_matches(self, question: str) -> list[AliasMatch]:
        """Longest non-overlapping alias spans (the graph's own aliases as token sequences,
        matched as spaCy's PhraseMatcher would). A one-word match must keep the alias's own
        casing unless the word is capitalised in the question ("Green" the album, not "green"
        the colour)."""
        from spacy.util import filter_spans

        index = self.index()
        phrases, targets = index.alias_matcher()
        doc = phrases.nlp.make_doc(question)
        spans = filter_spans([doc[s:e] for s, e in phrases.spans(doc)])
        out: list[AliasMatch] = []
        for span in spans:
            hits = targets.get(span.text.lower(), [])
            if len(span) == 1:
                word = span.text
                exact = [t for t in hits if index.entity_names[t[0]] == word]
                if not (word[:1].isupper() or exact):
                    continue
            for ei, conf in hits:
                out.append(
                    AliasMatch(
                        span.text,
                        span.start,
                        span.end,
                        index.projection.entity_ids[ei],
                        index.entity_names[ei],
                        conf,
                        int(index.projection.entity_chunk_degree[ei]),
                    )
                )
        return out

    def nearest_entities(
        self, vector: Sequence[float], k: int, min_score: float | None = None
    ) -> list[EntityMatch]:
        """Exact cosine over the index's entity vectors (with ``min_score``, most of them are
        ruled out from a quarter of their coordinates: entity_space.py); the store's vector
        index when the projection has no vectors."""
        index = self.index()
        space = index.entity_space
        if space is None:
            hits = self._store.vector_search_entities(list(vector), k)
            return [
                self._entity_match(index, pos, h.score)
                for h in hits
                if (pos := index.entity_index.get(h.entity_id)) is not None
                and (min_score is None or h.score >= min_score)
            ]
        positions, scores = space.nearest(np.asarray(vector, dtype=np.float32), k, min_score)
        return [
            self._entity_match(index, int(i), float(s))
            for i, s in zip(positions, scores, strict=True)
        ]

    def fulltext_entities(self, question: str, k: int) -> list[EntityMatch]:
        index = self.index()
        return [
            self._entity_match(index, pos, h.score, h.matched)
            for h in self._store.fulltext_aliases(question, k)
            if (pos := index.entity_index.get(h.entity_id)) is not None
        ]

    @staticmethod
    def _entity_match(index: GraphIndex, pos: int, score: float, matched: str = "") -> EntityMatch:
        return EntityMatch(
            index.projection.entity_ids[pos],
            index.entity_names[pos],
            score,
            int(index.projection.entity_chunk_degree[pos]),
            matched or index.entity_names[pos],
        )

    def entity_names(self, entity_ids: Sequence[str]) -> dict[str, str]:
        index = self.index()
        return {
            e: index.entity_names[pos]
            for e in entity_ids
            if (pos := index.entity_index.get(e)) is not None
        }

    # --- walks and authority --------------------------------------------------------
    def personalized_pagerank(
        self, seeds: Mapping[str, float], k: int, damping: float = 0.85
    ) -> dict[str, float]:
        projection = self.index().projection
        if k <= 0 or not any(w > 0 and projection.knows(s) for s, w in seeds.items()):
            return {}  # no seed in the graph, no walk (as GDS)
        tol, prune = self._walk
        return projection.personalized_top(seeds, k, damping, tol=tol, prune=prune)

    def refresh_authority(self) -> bool:
        """Global PageRank over the projection, written to the store; the store moves its
        graph version on, so the next read rebuilds the index with the new authority."""
        if not self._store.authority_stale():
            return False
        data = self._store.projection_data()
        entities, docs = Projection(data).authority(data)
        self._store.set_pagerank(entities, docs)
        return True

    def authority_percentiles(self, entity_ids: Sequence[str]) -> dict[str, float]:
        index = self.index()
        ranks = self._ranks(index)
        n = len(ranks)
        out: dict[str, float] = {}
        for e in entity_ids:
            pos = index.entity_index.get(e)
            if pos is not None:
                out[e] = float(ranks[pos]) / (n - 1) if n > 1 else 1.0
        return out

    def _ranks(self, index: GraphIndex) -> np.ndarray:
        """How many entities have a lower stored authority than each (ties share their best
        rank), per graph version."""
        with self._lock:
            ranks = self._percentiles.get(index.version)
            if ranks is None:
                values = np.asarray(index.entity_pagerank, dtype=np.float64)
                ranks = np.searchsorted(np.sort(values), values, side="left")
                self._percentiles.clear()  # one version kept: an old one is not read again
                self._percentiles[index.version] = ranks
            return ranks

    # --- paths ----------------------------------------------------------------------
    def relation_paths(
        self,
        sources: Mapping[str, float],
        max_hops: int,
        hop_decay: float = 0.8,
        backward: float = 0.5,
        keep: ReachKeep | None = None,
    ) -> dict[str, PathHop]:
        index = self.index()
        seeds = {
            pos: w for e, w in sources.items() if (pos := index.entity_index.get(e)) is not None
        }
        found = [] if keep is None else [index.entity_index.get(e, -1) for e in keep.targets]
        targets = [t for t in found if t >= 0]
        reach = expand(seeds, index, max_hops, hop_decay, backward, LastRound.of(keep, targets))
        ids, names = index.projection.entity_ids, index.entity_names
        reached = kept_positions(reach, keep, targets)
        return path_hops(
            reach,
            reached,
            index.rel_type,
            index.relation_type_names,
            index.rel_forward,
            ids.__getitem__,
            names.__getitem__,
        )

    def chunk_entities(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        index = self.index()
        ids = index.projection.entity_ids
        out: dict[str, dict[str, int]] = {}
        for c in chunk_ids:
            pos = index.projection.chunk_pos.get(c)
            if pos is not None:
                counts = index.chunk_mentions[pos]
                out[c] = {ids[e]: counts[j] for j, e in enumerate(index.chunk_entities[pos])}
        return out

    def entity_chunks(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        index = self.index()
        return {
            e: [index.chunk_ids[c] for c in index.entity_chunks[pos]]
            for e in entity_ids
            if (pos := index.entity_index.get(e)) is not None
        }

    def entity_similarities(
        self, entity_ids: Sequence[str], vector: Sequence[float]
    ) -> dict[str, float]:
        index = self.index()
        pos = [(e, p) for e in entity_ids if (p := index.entity_index.get(e)) is not None]
        if index.entity_space is None or not pos:
            return {}
        sims = index.entity_space.cosines(
            np.asarray([p for _, p in pos], dtype=np.int64), np.asarray(vector, dtype=np.float32)
        )
        return {e: float(x) for (e, _), x in zip(pos, sims, strict=True)}

    def chunk_details(
        self, chunk_ids: Sequence[str], vector: Sequence[float] | None = None
    ) -> dict[str, ChunkDetail]:
        index = self.index()
        pos = [p for c in chunk_ids if (p := index.projection.chunk_pos.get(c)) is not None]
        sims = np.zeros(len(pos))
        if vector is not None and pos:
            q = np.asarray(vector, dtype=np.float32)
            q = q / (np.linalg.norm(q) or 1.0)
            sims = index.chunk_matrix[pos] @ q
        texts = (
            {}
            if index.chunk_texts
            else {
                h.chunk_id: h.text
                for h in self._store.get_chunks([index.chunk_ids[p] for p in pos])
            }
        )
        out: dict[str, ChunkDetail] = {}
        for p, sim in zip(pos, sims, strict=True):
            c, doc = index.chunk_ids[p], index.chunk_docs[p]
            meta = index.docs[doc]
            out[c] = ChunkDetail(
                c,
                doc,
                meta.title,
                index.chunk_texts[p] if index.chunk_texts else texts.get(c, ""),
                index.chunk_index[p],
                index.chunk_tokens[p],
                float(sim),
                float(index.chunk_authority[p]),
                meta.source,
                meta.doc_type,
                meta.date,
            )
        return out

    def chunk_vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        index = self.index()
        pos = [(c, p) for c in chunk_ids if (p := index.projection.chunk_pos.get(c)) is not None]
        rows = index.chunk_matrix[[p for _, p in pos]]
        return {c: row.tolist() for (c, _), row in zip(pos, rows, strict=True)}

    def chunk_entity_similarities(
        self, chunk_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> dict[str, list[float]]:
        index = self.index()
        pos = [(c, p) for c in chunk_ids if (p := index.projection.chunk_pos.get(c)) is not None]
        if not pos or not entity_ids or index.entity_space is None:
            return {}
        at = index.entity_index
        named = [(i, p) for i, e in enumerate(entity_ids) if (p := at.get(e)) is not None]
        # unit vectors both: a name's row stays 0 where it has no vector
        m = np.zeros((len(entity_ids), index.chunk_matrix.shape[1]), dtype=np.float32)
        if named:
            rows = index.entity_space.vectors(np.asarray([p for _, p in named], dtype=np.int64))
            m[[i for i, _ in named]] = rows
        sims = index.chunk_matrix[[p for _, p in pos]] @ m.T
        return {c: [float(x) for x in row] for (c, _), row in zip(pos, sims, strict=True)}

    def subject_chunks(
        self, entity_ids: Sequence[str], titled: bool = False
    ) -> dict[str, list[str]]:
        index = self.index()
        by_entity = index.titled_docs if titled else index.subject_docs
        out: dict[str, list[str]] = {}
        for e in entity_ids:
            pos = index.entity_index.get(e)
            docs = by_entity.get(pos, []) if pos is not None else []
            if docs:
                out[e] = [index.chunk_ids[c] for d in docs for c in index.doc_chunks.get(d, [])]
        return out


def _top(scores: np.ndarray, k: int) -> list[int]:
    if k <= 0 or scores.size == 0:
        return []
    top = np.argpartition(-scores, k - 1)[:k] if k < scores.size else np.arange(scores.size)
    return [int(i) for i in top[np.argsort(-scores[top], kind="stable")]]
