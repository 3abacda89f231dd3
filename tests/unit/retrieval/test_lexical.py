"""In-memory BM25: scores checked by hand on a three-document corpus."""

from __future__ import annotations

import math

import numpy as np
import pytest

from retrieval.lexical import Bm25Index, idf, tokenize

DOCS = ["the cat sat", "the dog sat down", "a cat and a cat"]


def test_tokenize_lowercases_words() -> None:
    assert tokenize("Lilu's Demon, 1920!") == ["lilu", "s", "demon", "1920"]


def test_idf_is_lucene_non_negative() -> None:
    assert idf(3, 2) == pytest.approx(math.log(1 + 1.5 / 2.5))
    assert idf(3, 3) > 0


def test_single_term_score_by_hand() -> None:
    index = Bm25Index(DOCS)
    k1, b = 1.2, 0.75
    avg = (3 + 4 + 5) / 3
    w = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))  # "cat" is in two documents
    s = index.scores("Cat", k1, b)
    assert s[0] == pytest.approx(w * 1 * (k1 + 1) / (1 + k1 * (1 - b + b * 3 / avg)))
    assert s[1] == 0.0
    assert s[2] == pytest.approx(w * 2 * (k1 + 1) / (2 + k1 * (1 - b + b * 5 / avg)))


def test_terms_add_and_repeats_count_once() -> None:
    index = Bm25Index(DOCS)
    both = index.scores("dog sat", 1.2, 0.75)
    alone = index.scores("dog", 1.2, 0.75) + index.scores("sat", 1.2, 0.75)
    np.testing.assert_allclose(both, alone)
    np.testing.assert_allclose(index.scores("dog dog sat", 1.2, 0.75), both)


def test_b_zero_ignores_length() -> None:
    index = Bm25Index(["x y", "x y z w v u"])
    s = index.scores("x", 1.2, 0.0)
    assert s[0] == pytest.approx(s[1])


def test_top_orders_masks_and_drops_non_matches() -> None:
    index = Bm25Index(DOCS)
    assert [i for i, _ in index.top("cat", 5, 1.2, 0.75)] == [2, 0]
    assert [i for i, _ in index.top("cat", 1, 1.2, 0.75)] == [2]
    mask = np.array([True, True, False])
    assert [i for i, _ in index.top("cat", 5, 1.2, 0.75, mask)] == [0]
    assert index.top("unknown words", 5, 1.2, 0.75) == []
