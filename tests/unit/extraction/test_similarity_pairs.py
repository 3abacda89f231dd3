"""``embedding_pairs``: every pair of rows at or above the threshold, once, in row order,
across the blocks it computes in (checked against the whole similarity matrix)."""

from __future__ import annotations

import numpy as np

from extraction.similarity import _BLOCK, embedding_pairs


def test_pairs_across_blocks_equal_the_whole_matrix() -> None:
    rng = np.random.default_rng(7)
    n = 2 * _BLOCK + 300  # three blocks, the last one short
    vectors = rng.standard_normal((n, 48)).astype(np.float32)
    # near-copies of earlier rows, some in a later block than their original
    for i, j in ((5, 40), (10, _BLOCK + 3), (_BLOCK + 7, 2 * _BLOCK + 11), (3, n - 1)):
        vectors[j] = vectors[i] + 0.05 * rng.standard_normal(48).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)

    found = embedding_pairs(vectors, 0.9)

    whole = vectors @ vectors.T
    expected = [(i, j) for i, j in zip(*np.nonzero(whole >= 0.9), strict=True) if i < j]
    assert [(i, j) for i, j, _ in found] == [(int(i), int(j)) for i, j in expected]
    assert {(40, 5), (_BLOCK + 3, 10)}.isdisjoint((i, j) for i, j, _ in found)
    for i, j, cosine in found:
        assert abs(cosine - float(whole[i, j])) < 1e-5
