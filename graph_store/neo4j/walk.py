"""Personalized PageRank over the part of the graph a question reaches, in the process.

GDS 2.13 walks the whole catalog graph and streams every node back, once per binary digit of
the seed weights (rows.py ``seed_walks``): seven walks over all 44,550 nodes of the 2Wiki
graph cost 1.28 s a question. The graph preset's walk restarts often (damping 0.5), so after
``h`` steps only ``0.5**h`` of the mass is still walking and the ranking is decided within
two hops of the seeds. One query (``read_walk_neighbourhood``) fetches that neighbourhood
with each inner node's weighted degree over the whole graph; the walk leaves an inner node as
in the whole graph, mass that steps outside the fetched part is lost (not sent back to the
seeds), so the scores are a lower bound of the whole-graph walk's that keeps its ranking.

Pure computation: the read model (read_model.py) runs the one query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import sparse

# Iterations and stopping tolerance of the power iteration: those of the in-memory projection
# (retrieval/projection.py), so that both stop at the same precision.
MAX_ITERATIONS = 100
TOLERANCE = 1e-6


class Neighbourhood:
    """The fetched part of the walk graph: rows of ``read_walk_neighbourhood`` (node id, its
    weighted degree over the whole graph, far ids, edge weights), added round by round."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[float, list[str], list[float]]] = {}

    def add(self, rows: Sequence[Sequence[Any]]) -> None:
        for node, degree, far, weights in rows:
            ids = [str(f) for f in far]
            self.rows[str(node)] = (float(degree or 0.0), ids, [float(w) for w in weights])

    def matrix(self) -> tuple[list[str], sparse.csr_matrix]:
        """Node ids (fetched nodes first) and the transposed transition matrix over them:
        column ``a`` holds where one step from ``a`` goes, normalised by ``a``'s whole-graph
        degree. An edge listed at one fetched node is also walked back from the other end when
        that end was fetched without its edges (a hub)."""
        ids = list(self.rows)
        pos = {n: i for i, n in enumerate(ids)}
        src: list[int] = []
        dst: list[int] = []
        val: list[float] = []
        for node, (degree, far, weights) in self.rows.items():
            a = pos[node]
            for b_id, w in zip(far, weights, strict=True):
                b = pos.get(b_id)
                if b is None:
                    b = pos[b_id] = len(ids)
                    ids.append(b_id)
                if degree > 0:
                    src.append(a)
                    dst.append(b)
                    val.append(w / degree)
                other = self.rows.get(b_id)
                if other is not None and not other[1] and other[0] > 0:
                    src.append(b)
                    dst.append(a)
                    val.append(w / other[0])
        n = len(ids)
        walk_t = sparse.csr_matrix((np.asarray(val, dtype=np.float64), (dst, src)), shape=(n, n))
        walk_t.sum_duplicates()
        return ids, walk_t


def personalized(
    hood: Neighbourhood, seeds: Mapping[str, float], damping: float
) -> dict[str, float]:
    """Every node the walk restarting at ``seeds`` reaches in the fetched part, with its score
    (a share of the seeds' total weight; the whole-graph walk's scores sum to 1)."""
    ids, walk_t = hood.matrix()
    pos = {n: i for i, n in enumerate(ids)}
    reset = np.zeros(len(ids))
    for node, w in seeds.items():
        i = pos.get(node)
        if i is not None and w > 0 and np.isfinite(w):
            reset[i] += w
    total = reset.sum()
    if total <= 0:
        return {}
    reset /= total
    r = reset.copy()
    for _ in range(MAX_ITERATIONS):
        nxt = damping * (walk_t @ r) + (1.0 - damping) * reset
        delta = float(np.abs(nxt - r).sum())
        r = nxt
        if delta < TOLERANCE:
            break
    return {ids[i]: float(r[i]) for i in np.flatnonzero(r > 0)}


def frontier(
    hood: Neighbourhood, scores: Mapping[str, float], min_score: float, limit: int
) -> list[str]:
    """Reached nodes not fetched yet whose score is at least ``min_score``, best first: the
    walk's mass there is what the fetched part loses."""
    far = [(s, n) for n, s in scores.items() if s >= min_score and n not in hood.rows]
    return [n for _, n in sorted(far, key=lambda x: (-x[0], x[1]))[:limit]]


def top(scores: Mapping[str, float], k: int) -> dict[str, float]:
    """The ``k`` best, best first."""
    return dict(sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[: max(0, k)])
