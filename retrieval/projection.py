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

A personalized walk pushes mass out from its seeds (``LocalWalk``): its cost is the edges of
the nodes it pushes from, not the whole graph. With ``prune`` > 0 a node pushes only while it
holds at least that share of the seeds' mass per edge it has, so the walk stays near the seeds
on a graph whose hubs reach everything, and a question costs about the same in a store five
times as big; the scores are a lower bound of the exact walk's.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

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
        self.dangling = self.degree == 0
        self.inv_degree = inv
        # Number of chunks mentioning each entity: the specificity signal for entity seeds.
        mention_matrix = adjacency[self.n_chunks :, : self.n_chunks]
        self.entity_chunk_degree = np.asarray((mention_matrix > 0).sum(axis=1)).ravel()

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
            lost = np.float32(r[self.dangling].sum(dtype=np.float64))
            nxt = d * (self._walk_t @ r) + (np.float32(1.0) - d + d * lost) * reset
            delta = float(np.abs(nxt - r).sum(dtype=np.float64))
            r = nxt
            if delta < tol:
                return PageRankResult(r.astype(np.float64), it, True)
        return PageRankResult(r.astype(np.float64), max_iter, False)

    def personalized(
        self,
        seeds: Mapping[str, float],
        damping: float = 0.85,
        max_iter: int = 100,
        tol: float = 1e-6,
        prune: float = 0.0,
    ) -> dict[str, float]:
        """PPR seeded by chunk or entity ids; returns every reached node's score by id."""
        nodes, scores = self._personalized_scores(seeds, damping, max_iter, tol, prune)
        keep = scores > 0
        pairs = zip(nodes[keep].tolist(), scores[keep].tolist(), strict=True)
        return {self._name(i): float(x) for i, x in pairs}

    def personalized_top(
        self,
        seeds: Mapping[str, float],
        k: int,
        damping: float = 0.85,
        max_iter: int = 100,
        tol: float = 1e-6,
        prune: float = 0.0,
    ) -> dict[str, float]:
        """The ``k`` best nodes of ``personalized``, best first, ties by id: the same as
        sorting all of them, without sorting all of them (a question needs a few thousand of
        the nodes its walk reaches)."""
        nodes, scores = self._personalized_scores(seeds, damping, max_iter, tol, prune)
        return top_nodes(nodes, scores, k, self._name)

    def knows(self, node: str) -> bool:
        return node in self.chunk_pos or node in self.entity_pos

    def _name(self, i: int) -> str:
        return self.chunk_ids[i] if i < self.n_chunks else self.entity_ids[i - self.n_chunks]

    def _personalized_scores(
        self, seeds: Mapping[str, float], damping: float, max_iter: int, tol: float, prune: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """The walk's reached nodes (positions) and their scores."""
        weights: dict[int, float] = {}
        for node, w in seeds.items():
            i = self.entity_pos.get(node, self.chunk_pos.get(node))
            if i is not None and w > 0 and math.isfinite(w):
                weights[i] = weights.get(i, 0.0) + w
        if not weights:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        walk = LocalWalk(self, weights, damping)
        walk.run(prune, tol, max_iter)
        return walk.nodes, walk.mass

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


class WalkGraph(Protocol):
    """What a local walk reads of a graph: its symmetric weighted adjacency (CSR), each
    node's inverse weighted degree, and which nodes have no edge."""

    size: int
    adjacency: sparse.csr_matrix
    inv_degree: np.ndarray
    dangling: np.ndarray


def top_nodes(
    nodes: np.ndarray, scores: np.ndarray, k: int, name: Callable[[int], str]
) -> dict[str, float]:
    """The ``k`` best of a walk's reached nodes by ``name``, best first, ties by name: the
    same as sorting all of them, without sorting all of them (a question needs a few
    thousand of the nodes its walk reaches)."""
    keep = scores > 0
    nodes, scores = nodes[keep], scores[keep]
    if k <= 0 or nodes.size == 0:
        return {}
    chosen = np.arange(nodes.size)
    if nodes.size > k:
        kth = np.partition(scores, nodes.size - k)[nodes.size - k]
        above = np.flatnonzero(scores > kth)
        tied = np.flatnonzero(scores == kth)
        tied = np.asarray(sorted(tied.tolist(), key=lambda j: name(int(nodes[j]))))
        chosen = np.concatenate([above, tied[: k - above.size]]).astype(np.int64)
    pairs = [(name(int(nodes[j])), float(scores[j])) for j in chosen.tolist()]
    return dict(sorted(pairs, key=lambda kv: (-kv[1], kv[0])))


class LocalWalk:
    """Personalized PageRank by pushing mass (Andersen, Chung and Lang's local push, every
    node that qualifies at once): a node keeps ``1 - damping`` of the mass that reaches it and
    passes the rest along its edges. A node pushes only while its waiting mass is at least
    ``prune`` per edge it has, so a hub must gather much mass before it spreads it over its
    thousands of edges; the work then depends on ``prune``, not on the size of the graph.
    Every score is a lower bound of the exact walk's (what still waits at a node would reach
    it again, and others, had it been pushed). With ``prune`` 0 every node pushes each
    round: the exact walk's power series, stopped when less than ``tol`` of the mass still
    waits. Nodes are numbered in the order reached."""

    def __init__(self, graph: WalkGraph, weights: Mapping[int, float], damping: float) -> None:
        self._p = graph
        self._damping = damping
        # position in the graph -> number here (-1: not reached); one array per walk, so that
        # walks on other threads do not share it
        self._slot = np.full(graph.size, -1, dtype=np.int64)
        self.nodes: np.ndarray = np.asarray(sorted(weights), dtype=np.int64)
        self._slot[self.nodes] = np.arange(self.nodes.size)
        reset = np.asarray([weights[int(i)] for i in self.nodes], dtype=np.float64)
        self._reset: np.ndarray = reset / reset.sum()
        self._kept: np.ndarray = np.zeros(self.nodes.size)
        self._waiting: np.ndarray = self._reset.copy()

    @property
    def mass(self) -> np.ndarray:
        """Each reached node's score: what it kept, and its share of what still waits there."""
        mass: np.ndarray = self._kept + (1.0 - self._damping) * self._waiting
        return mass

    def run(self, prune: float, tol: float, rounds: int) -> None:
        edges_of = np.diff(self._p.adjacency.indptr)
        for _ in range(rounds):
            if self._waiting.sum() < tol:
                break
            g = self.nodes
            ready = np.flatnonzero((self._waiting > 0) & (self._waiting >= prune * edges_of[g]))
            if ready.size == 0:
                break
            self._push(ready)

    def _push(self, ready: np.ndarray) -> None:
        """The ``ready`` nodes keep their share and send the rest along their edges in
        proportion to the edges' weights (the adjacency is symmetric, so a node's row lists
        where it goes); a node without edges sends it back to the seeds."""
        adj, p, damping = self._p.adjacency, self._p, self._damping
        g = self.nodes[ready]
        out = self._waiting[ready]
        self._kept[ready] += (1.0 - damping) * out
        self._waiting[ready] = 0.0
        starts = adj.indptr[g]
        counts = adj.indptr[g + 1] - starts
        # positions in adj.indices / adj.data of every edge leaving the ready nodes
        edges = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        sent = np.repeat(damping * out * p.inv_degree[g], counts) * adj.data[edges]
        to = self._number(adj.indices[edges])
        self._waiting += np.bincount(to, weights=sent, minlength=self.nodes.size)
        lost = float(out[p.dangling[g]].sum())
        if lost > 0:
            self._waiting[: self._reset.size] += damping * lost * self._reset

    def _number(self, positions: np.ndarray) -> np.ndarray:
        """Numbers of graph positions, numbering the ones reached for the first time (and
        growing the walk's arrays for them)."""
        found = self._slot[positions]
        fresh = positions[found < 0]
        if fresh.size:
            # Each first reached once, in position order (the order of a round's pushes,
            # and so of its sums): a position written several times keeps one of the numbers
            # written, and only that copy stays; then only the distinct ones are sorted.
            base = self.nodes.size
            mark = np.arange(base, base + fresh.size)
            self._slot[fresh] = mark
            fresh = np.sort(fresh[self._slot[fresh] == mark])
            self._slot[fresh] = np.arange(base, base + fresh.size)
            self.nodes = np.concatenate([self.nodes, fresh])
            self._kept = np.concatenate([self._kept, np.zeros(fresh.size)])
            self._waiting = np.concatenate([self._waiting, np.zeros(fresh.size)])
            found = self._slot[positions]
        numbers: np.ndarray = found
        return numbers
