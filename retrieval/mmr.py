"""Maximal marginal relevance: pick results that are relevant and not near-copies."""

from __future__ import annotations

import numpy as np


def mmr(
    candidates: list[int],
    relevance: dict[int, float],
    vectors: np.ndarray,
    k: int,
    lambda_: float = 0.7,
) -> list[int]:
    """Greedy MMR over row indices of ``vectors`` (unit-normalised rows).

    Each step takes the candidate maximising ``lambda_ * relevance - (1 - lambda_) * max
    similarity to those already taken``. ``lambda_ = 1`` keeps the relevance order."""
    pool = list(dict.fromkeys(candidates))
    if k <= 0 or not pool:
        return []
    rel = np.asarray([relevance.get(i, 0.0) for i in pool], dtype=np.float64)
    span = rel.max() - rel.min()
    rel = (rel - rel.min()) / span if span > 0 else np.ones_like(rel)
    sims = vectors[pool] @ vectors[pool].T
    chosen: list[int] = []
    best_sim = np.full(len(pool), -np.inf)
    available = np.ones(len(pool), dtype=bool)
    for _ in range(min(k, len(pool))):
        penalty = np.where(np.isfinite(best_sim), best_sim, 0.0)
        score = lambda_ * rel - (1.0 - lambda_) * penalty
        score[~available] = -np.inf
        j = int(np.argmax(score))
        chosen.append(pool[j])
        available[j] = False
        best_sim = np.maximum(best_sim, sims[j])
    return chosen


def near_duplicates(vectors: np.ndarray, threshold: float) -> set[int]:
    """Rows (in the given order, best first) whose cosine with an earlier kept row is above
    ``threshold``: the later copy of a passage quoted word for word elsewhere. Rows must be
    unit-normalised."""
    dropped: set[int] = set()
    if len(vectors) == 0:
        return dropped
    sims = vectors @ vectors.T
    kept: list[int] = []
    for i in range(len(vectors)):
        if kept and float(sims[i, kept].max()) > threshold:
            dropped.add(i)
        else:
            kept.append(i)
    return dropped
