"""In-memory projection of the chunk–entity graph with PageRank and personalized PageRank.

The embedded store has no weighted personalized PageRank, and Neo4j without GDS (Aura Free)
has none at all, so both fall back to this sparse projection. Nodes are chunks followed by
entities; edges are undirected:

- chunk – entity for every mention, weighted by the mention count;
- entity – entity for every ``RELATED`` edge, weighted by its weight (typed relations carry more
  weight than co-occurrence, as set at extraction);
- chunk – chunk between neighbouring chunks of one document (``NEXT``), so a document's passages
  pass relevance to each other.

The walk is the usual one: with probability ``damping`` follow an edge in proportion to its
weight, otherwise jump back to the personalization vector. Dangling mass returns there too.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from graph_store.types import ProjectionData

# Neighbouring chunks of one document share context, but less than a shared entity: this keeps
# long documents from swallowing the walk while still letting a passage lift its neighbours.
NEXT_WEIGHT = 0.5
# A mention of a document's own subject (the entity its title names) counts this many times
# more: a walk arriving at an entity should reach the passages *about* it before the passages
# that merely mention it. Chosen with ``kg bench multihop`` (see README).
SUBJECT_WEIGHT = 3.0


@dataclass(frozen=True)
class PageRankResult:
    scores: np.ndarray
    iterations: int
    converged: bool


class Projection:
    """Sparse, row-normalised transition matrix over chunks + entities, built once per graph
    version. Pure computation: no I/O."""

    def __init__(
        self,
        data: ProjectionData,
        next_weight: float = NEXT_WEIGHT,
        subject_weight: float = SUBJECT_WEIGHT,
    ) -> None:
        self.version = data.version
        self.chunk_ids = list(data.chunk_ids)
        self.entity_ids = list(data.entity_ids)
        self.n_chunks = len(self.chunk_ids)
        self.n_entities = len(self.entity_ids)
        self.size = self.n_chunks + self.n_entities
        self.chunk_pos = {c: i for i, c in enumerate(self.chunk_ids)}
        self.entity_pos = {e: self.n_chunks + i for i, e in enumerate(self.entity_ids)}
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []

        def link(a: int, b: int, w: float) -> None:
            if a == b or w <= 0:
                return
            rows.extend((a, b))
            cols.extend((b, a))
            vals.extend((w, w))

        subjects = subject_pairs(data)
        chunk_doc = dict(zip(data.chunk_ids, data.chunk_docs, strict=True))
        for chunk, entity, count in data.mentions:
            ci, ei = self.chunk_pos.get(chunk), self.entity_pos.get(entity)
            if ci is not None and ei is not None:
                boost = subject_weight if (chunk_doc[chunk], entity) in subjects else 1.0
                link(ci, ei, float(max(1, count)) * boost)
        for src, dst, _type, weight in data.relations:
            si, di = self.entity_pos.get(src), self.entity_pos.get(dst)
            if si is not None and di is not None:
                link(si, di, float(weight))
        if next_weight > 0:
            order = sorted(
                range(self.n_chunks), key=lambda i: (data.chunk_docs[i], data.chunk_index[i])
            )
            for a, b in itertools.pairwise(order):
                if data.chunk_docs[a] == data.chunk_docs[b]:
                    link(a, b, next_weight)
        adjacency = sparse.csr_matrix(
            (np.asarray(vals, dtype=np.float64), (rows, cols)), shape=(self.size, self.size)
        )
        adjacency.sum_duplicates()
        self.adjacency = adjacency
        self.degree = np.asarray(adjacency.sum(axis=1)).ravel()
        inv = np.divide(1.0, self.degree, out=np.zeros_like(self.degree), where=self.degree > 0)
        # Transposed row-stochastic matrix: one sparse mat-vec per power-iteration step. Float32
        # halves the memory each step streams; scores are only compared with each other, and
        # the L1 stopping tolerance (>= 1e-6) is far above float32 rounding on a unit sum.
        self._walk_t = (sparse.diags(inv) @ adjacency).T.tocsr().astype(np.float32)
        self._dangling = self.degree == 0
        # Number of chunks mentioning each entity: the specificity signal for entity seeds.
        mention_matrix = adjacency[self.n_chunks :, : self.n_chunks]
        self.entity_chunk_degree = np.asarray((mention_matrix > 0).sum(axis=1)).ravel()

    def vector(self, weights: Mapping[int, float]) -> np.ndarray:
        v = np.zeros(self.size, dtype=np.float64)
        for i, w in weights.items():
            if 0 <= i < self.size and w > 0:
                v[i] += w
        return v

    def pagerank(
        self,
        personalization: np.ndarray | None = None,
        damping: float = 0.85,
        tol: float = 1e-6,
        max_iter: int = 100,
    ) -> PageRankResult:
        """PageRank (global when ``personalization`` is None) by power iteration; scores sum
        to 1. An all-zero personalization falls back to the uniform vector."""
        if self.size == 0:
            return PageRankResult(np.zeros(0), 0, True)
        if personalization is None or personalization.sum() <= 0:
            reset = np.full(self.size, 1.0 / self.size, dtype=np.float32)
        else:
            reset = (personalization / personalization.sum()).astype(np.float32)
        r = reset.copy()
        d = np.float32(damping)
        for it in range(1, max_iter + 1):
            lost = np.float32(r[self._dangling].sum(dtype=np.float64))
            nxt = d * (self._walk_t @ r) + (np.float32(1.0) - d + d * lost) * reset
            delta = float(np.abs(nxt - r).sum(dtype=np.float64))
            r = nxt
            if delta < tol:
                return PageRankResult(r.astype(np.float64), it, True)
        return PageRankResult(r.astype(np.float64), max_iter, False)

    def personalized(
        self, seeds: Mapping[str, float], damping: float = 0.85, max_iter: int = 100
    ) -> dict[str, float]:
        """PPR seeded by chunk or entity ids; returns every node's score by id."""
        scores = self._personalized_scores(seeds, damping, max_iter)
        ids = self.chunk_ids + self.entity_ids
        return {ids[i]: float(scores[i]) for i in np.flatnonzero(scores > 0).tolist()}

    def personalized_top(
        self, seeds: Mapping[str, float], k: int, damping: float = 0.85, max_iter: int = 100
    ) -> dict[str, float]:
        """The ``k`` best nodes of ``personalized``, best first, ties by id: the same as
        sorting all of them, without sorting all of them (a question needs a few thousand of a
        graph's hundreds of thousands of nodes)."""
        scores = self._personalized_scores(seeds, damping, max_iter)
        positive = np.flatnonzero(scores > 0)
        if k <= 0 or positive.size == 0:
            return {}
        chunks, entities, n = self.chunk_ids, self.entity_ids, self.n_chunks

        def name(i: int) -> str:
            return chunks[i] if i < n else entities[i - n]

        chosen = positive
        if positive.size > k:
            values = scores[positive]
            kth = np.partition(values, positive.size - k)[positive.size - k]
            above = positive[values > kth]
            tied = sorted(positive[values == kth].tolist(), key=name)[: k - above.size]
            chosen = np.concatenate([above, np.asarray(tied, dtype=above.dtype)])
        pairs = [(name(i), float(scores[i])) for i in chosen.tolist()]
        return dict(sorted(pairs, key=lambda kv: (-kv[1], kv[0])))

    def _personalized_scores(
        self, seeds: Mapping[str, float], damping: float, max_iter: int
    ) -> np.ndarray:
        weights: dict[int, float] = {}
        for node, w in seeds.items():
            i = self.entity_pos.get(node, self.chunk_pos.get(node))
            if i is not None:
                weights[i] = weights.get(i, 0.0) + w
        return self.pagerank(self.vector(weights), damping, max_iter=max_iter).scores

    def authority(self, data: ProjectionData) -> tuple[dict[str, float], dict[str, float]]:
        """Global PageRank per entity, and per document by ``document_authority``."""
        scores = self.pagerank().scores
        entities = {e: float(scores[self.n_chunks + i]) for i, e in enumerate(self.entity_ids)}
        chunks = {c: float(scores[i]) for i, c in enumerate(self.chunk_ids)}
        docs = document_authority(
            list(zip(data.doc_ids, data.doc_titles, strict=True)),
            dict(zip(data.chunk_ids, data.chunk_docs, strict=True)),
            chunks,
            dict(zip(data.entity_ids, data.entity_names, strict=True)),
            entities,
        )
        return entities, docs


def document_authority(
    docs: list[tuple[str, str]],
    chunk_docs: Mapping[str, str],
    chunk_scores: Mapping[str, float],
    entity_names: Mapping[str, str],
    entity_scores: Mapping[str, float],
) -> dict[str, float]:
    """A document's authority is the PageRank of its subject, the entity its title names: a
    document is authoritative when the rest of the corpus keeps talking about what it is
    about. Without a subject, the mean score of its chunks. Shared by the in-memory
    projection and the GDS path, so both backends rank documents by one rule."""
    by_name: dict[str, float] = {}
    for eid, name in entity_names.items():
        key = " ".join(name.casefold().split())
        by_name[key] = max(by_name.get(key, 0.0), entity_scores.get(eid, 0.0))
    total: dict[str, float] = {}
    count: dict[str, int] = {}
    for chunk, doc in chunk_docs.items():
        total[doc] = total.get(doc, 0.0) + chunk_scores.get(chunk, 0.0)
        count[doc] = count.get(doc, 0) + 1
    out: dict[str, float] = {}
    for doc, title in docs:
        subject = by_name.get(" ".join(title.casefold().split()))
        if subject is not None:
            out[doc] = subject
        elif count.get(doc):
            out[doc] = total[doc] / count[doc]
    return out


def name_key(name: str) -> str:
    return " ".join(name.casefold().split())


def subject_pairs(data: ProjectionData) -> set[tuple[str, str]]:
    """(document id, entity id) for each document whose title names an entity."""
    by_name: dict[str, list[str]] = {}
    for eid, name in zip(data.entity_ids, data.entity_names, strict=True):
        by_name.setdefault(name_key(name), []).append(eid)
    return {
        (doc, eid)
        for doc, title in zip(data.doc_ids, data.doc_titles, strict=True)
        for eid in by_name.get(name_key(title), [])
    }
