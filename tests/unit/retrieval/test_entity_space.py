"""The entity space answers as the full product over its held vectors does, from a quarter of
the coordinates; the held vectors (a float16 tail) stay within 1e-4 of the originals."""

from __future__ import annotations

import numpy as np
import pytest

from retrieval.entity_space import HEAD_DIMS, EntitySpace


def _names(n: int, dim: int, seed: int) -> np.ndarray:
    """Unit vectors in a few clusters (names of a kind lie close together), as name
    embeddings do; the clusters give the rotation a head worth having."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((12, dim))
    rows = centres[rng.integers(0, 12, n)] + 0.6 * rng.standard_normal((n, dim))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows.astype(np.float32)


def _brute(unit: np.ndarray, q: np.ndarray, k: int, floor: float | None) -> list[int]:
    sims = unit.astype(np.float64) @ (q / np.linalg.norm(q))
    order = sorted(range(len(sims)), key=lambda i: (-sims[i], i))
    return [i for i in order if floor is None or sims[i] >= floor][:k]


@pytest.mark.parametrize("floor", [None, 0.3, 0.6, 0.9])
def test_nearest_is_the_full_products_answer(floor: float | None) -> None:
    unit = _names(3000, 384, seed=1)
    space = EntitySpace.build(unit)
    rng = np.random.default_rng(2)
    held = space.vectors(np.arange(len(unit)))
    for i in range(20):
        # questions near a name, and one far from all of them
        q = unit[i * 97] + 0.4 * rng.standard_normal(384) if i else rng.standard_normal(384)
        positions, scores = space.nearest(q.astype(np.float32), 10, floor)
        assert positions.tolist() == _brute(held, q, 10, floor)
        want = held[positions].astype(np.float64) @ (q / np.linalg.norm(q))
        assert np.allclose(scores, want, atol=1e-5)
        # and within the tail's rounding of the vectors it was built from
        original = unit[positions].astype(np.float64) @ (q / np.linalg.norm(q))
        assert np.allclose(scores, original, atol=1e-4)


def test_the_tail_is_held_in_half_the_bytes() -> None:
    unit = _names(1000, 384, seed=6)
    space = EntitySpace.build(unit)
    # a float32 head, a float16 tail, a float32 norm per name; the 384 x 384 float32 basis
    per_name = HEAD_DIMS * 4 + (384 - HEAD_DIMS) * 2 + 4
    assert space.nbytes == 1000 * per_name + 384 * 384 * 4


def test_vectors_and_cosines_read_the_original_coordinates() -> None:
    unit = _names(500, 384, seed=3)
    space = EntitySpace.build(unit)
    picks = np.asarray([0, 17, 499])
    assert np.allclose(space.vectors(picks), unit[picks], atol=1e-4)
    q = np.linspace(-1.0, 1.0, 384).astype(np.float32)
    want = unit[picks] @ (q / np.linalg.norm(q))
    assert np.allclose(space.cosines(picks, q), want, atol=1e-4)


def test_vectors_narrower_than_the_head_have_no_tail() -> None:
    unit = _names(50, 8, seed=4)
    assert HEAD_DIMS > 8
    space = EntitySpace.build(unit)
    positions, _ = space.nearest(unit[3], 5, 0.5)
    assert positions.tolist() == _brute(space.vectors(np.arange(50)), unit[3], 5, 0.5)


def test_an_empty_or_single_space_answers() -> None:
    empty = EntitySpace.build(np.zeros((0, 16), dtype=np.float32))
    assert empty.nearest(np.ones(16, dtype=np.float32), 3)[0].size == 0
    one = EntitySpace.build(_names(1, 16, seed=5))
    positions, scores = one.nearest(np.ones(16, dtype=np.float32), 3)
    assert positions.tolist() == [0] and scores.size == 1
