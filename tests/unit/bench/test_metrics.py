"""Recall@k and percentiles against values worked out by hand."""

from __future__ import annotations

import pytest

from bench.metrics import first_occurrences, mean, percentile_ms, recall_at_k


def test_recall_counts_gold_passages_in_the_top_k() -> None:
    ranked = [5, 3, 9, 1, 7, 2]
    gold = [frozenset({3}), frozenset({7}), frozenset({8})]
    # top-1 {5}: none of 3 gold; top-2 {5,3}: 1 of 3; top-5 {5,3,9,1,7}: 2 of 3.
    assert recall_at_k(ranked, gold, 1) == 0.0
    assert recall_at_k(ranked, gold, 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, gold, 5) == pytest.approx(2 / 3)
    assert recall_at_k(ranked, gold, 100) == pytest.approx(2 / 3)


def test_a_gold_passage_with_alternatives_counts_once() -> None:
    gold = [frozenset({1, 2}), frozenset({4})]
    # Both alternatives of the first gold passage are ranked: still one of two found.
    assert recall_at_k([1, 2, 3], gold, 3) == 0.5
    assert recall_at_k([2, 4], gold, 2) == 1.0


def test_recall_without_gold_is_an_error() -> None:
    with pytest.raises(ValueError):
        recall_at_k([1], [], 2)


def test_first_occurrences_keeps_rank_order() -> None:
    assert first_occurrences([3, 1, 3, 2, 1]) == [3, 1, 2]


def test_mean_and_percentiles() -> None:
    assert mean([]) == 0.0
    assert mean([1.0, 2.0, 6.0]) == 3.0
    seconds = [0.010, 0.020, 0.030, 0.040]
    # numpy's linear interpolation: p50 between 20 and 30 ms; p95 at 0.85 of the way 30 -> 40.
    assert percentile_ms(seconds, 50) == pytest.approx(25.0)
    assert percentile_ms(seconds, 95) == pytest.approx(38.5)
    assert percentile_ms([], 50) == 0.0
