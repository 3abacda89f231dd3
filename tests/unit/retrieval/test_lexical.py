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


def test_length_normalisation_is_built_once_per_setting() -> None:
    index = Bm25Index(DOCS)
    first = index.norm(1.2, 0.75)
    assert index.norm(1.2, 0.75) is first
    assert index.norm(1.2, 0.5) is not first
    # A query uses the cached vector: poisoning it changes the score, so none is rebuilt.
    before = index.scores("cat", 1.2, 0.75)
    index._norms[(1.2, 0.75)] = np.full(3, 1e9)
    assert index.scores("cat", 1.2, 0.75)[0] < before[0]


def test_cached_scores_equal_the_formula_on_every_query() -> None:
    index = Bm25Index(DOCS)
    lengths = np.array([3.0, 4.0, 5.0])
    for k1, b in [(1.2, 0.75), (0.9, 0.4), (1.2, 0.75)]:
        for term in ["cat", "sat", "the"]:
            df = sum(term in tokenize(d) for d in DOCS)
            tf = np.array([tokenize(d).count(term) for d in DOCS], dtype=float)
            norm = k1 * (1 - b + b * lengths / lengths.mean())
            want = idf(3, df) * tf * (k1 + 1) / (tf + norm)
            np.testing.assert_allclose(index.scores(term, k1, b), want)
