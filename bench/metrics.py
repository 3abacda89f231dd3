"""Recall@k over passages, rank de-duplication and latency percentiles."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T", bound=Hashable)


def first_occurrences(items: Iterable[T]) -> list[T]:
    """Items in order with repeats removed: several chunks of one passage rank it once."""
    return list(dict.fromkeys(items))


def recall_at_k(ranked: Sequence[int], gold: Sequence[frozenset[int]], k: int) -> float:
    """Share of gold passages with at least one acceptable index in the top ``k``."""
    if not gold:
        raise ValueError("recall is undefined without gold passages")
    top = set(ranked[:k])
    return sum(1 for g in gold if g & top) / len(gold)


def mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0


def percentile_ms(seconds: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (linear interpolation) of durations, in milliseconds."""
    if not seconds:
        return 0.0
    return float(np.percentile(np.asarray(seconds, dtype=float), q) * 1000.0)
