"""RRF, MMR, packing and filters: small cases computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import InputError
from retrieval.filters import SearchFilters
from retrieval.fusion import rrf
from retrieval.mmr import mmr
from retrieval.packing import ends_first, pack


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = rrf([["a", "b", "c"], ["b", "a"]], k=60)
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["c"] == pytest.approx(1 / 63)
    assert rrf([], k=60) == {}


def test_mmr_skips_near_duplicates() -> None:
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    relevance = {0: 1.0, 1: 0.95, 2: 0.5}
    assert mmr([0, 1, 2], relevance, vectors, 2, lambda_=1.0) == [0, 1]
    assert mmr([0, 1, 2], relevance, vectors, 2, lambda_=0.5) == [0, 2]
    assert mmr([], relevance, vectors, 2) == []
    assert mmr([0, 1, 2], relevance, vectors, 0) == []


def test_ends_first_puts_strongest_at_both_ends() -> None:
    assert ends_first([1, 2, 3, 4, 5]) == [1, 3, 5, 4, 2]
    assert ends_first([]) == []


def test_pack_caps_documents_and_budget_and_groups() -> None:
    items = [("a", 1, 40), ("a", 2, 40), ("a", 3, 40), ("a", 4, 40), ("b", 5, 40), ("c", 6, 90)]
    packed = pack(items, tokens=lambda x: x[2], document=lambda x: x[0], budget=200, per_document=3)
    # a: three passages (cap), b: one, c: does not fit (40*4 + 90 > 200).
    assert sorted(x[1] for x in packed) == [1, 2, 3, 5]
    # Groups: a (best) first, b last; a's passages stay together in rank order.
    assert [x[1] for x in packed] == [1, 2, 3, 5]
    assert pack(items, tokens=lambda x: x[2], document=lambda x: x[0], budget=10) == []


def test_filters_accept_and_reject() -> None:
    f = SearchFilters(source="board", doc_type="plan", date_from="2026-01", date_to="2026-06-30")
    assert f.active
    assert f.accepts("board", "Plan", "2026-03-01")
    assert not f.accepts("web", "plan", "2026-03-01")
    assert not f.accepts("board", "minutes", "2026-03-01")
    assert not f.accepts("board", "plan", "2025-12-31")
    assert not f.accepts("board", "plan", "2026-07-01")
    assert not f.accepts("board", "plan", "")
    assert not SearchFilters().active
    with pytest.raises(InputError):
        SearchFilters(date_from="March 2026")
