"""Entity name vectors held so that a linking search reads a quarter of them, exactly.

Entity linking asks for the names closest to the question, and keeps only those at cosine
``min_score`` or more (0.6). A plain product with every unit name vector reads the whole
matrix per question: 1,536 bytes a name, 19-28 ms for the 187,700 names of a 30,000-passage
graph, where the rest of the graph preset took about 50 ms.

Here the vectors are rotated once per index into the principal axes of their second moment
(an orthonormal basis ``V``: dot products are unchanged), and split into a head of the first
``HEAD_DIMS`` coordinates and the tail. For a unit question ``q`` and a name ``x`` (both
rotated), ``q.x = q_h.x_h + q_t.x_t`` and ``|q_t.x_t| <= |q_t| |x_t|`` (Cauchy-Schwarz), so a
name whose head product plus that bound stays under ``min_score`` cannot reach it. The
search reads the head (a quarter of the bytes), then the tails of the few names the bound
keeps, and returns what the full product over the held vectors returns.

The tail is held in float16, half the bytes of the space's largest part (21.5 MB of the 2Wiki
graph's 37,332 names). Its rounding moves a cosine by about 1e-5 (at most 2^-11 of the tail's
share of it), far under what the embedding model's own bfloat16 run moves it; the bound is
taken over the held tail, so the search stays exact for the vectors it holds.
"""

from __future__ import annotations

import numpy as np

# Leading coordinates read for every name. Measured on the 2Wiki entity names (37,332 at 1x)
# with 200 passage-derived questions and min_score 0.6, the names left to check in full,
# median / p95: 32 dims 19,104 / 30,859; 64: 1,472 / 8,456; 96: 92 / 1,317; 128: 16 / 153.
# One search took 0.58 ms at 96 and 1.22 ms at 128, against 4.57 ms for the full product.
HEAD_DIMS = 96
# Names sampled (seeded) to find the axes: the rotation comes from a 384 x 384 second-moment
# matrix, whose axes a sample of this size already fixes.
AXIS_SAMPLE = 20_000
# Rounding of the rotation (float32) moves a cosine by about 1e-7; the bound is widened by
# this much so that no name at exactly ``min_score`` is dropped.
SLACK = 1e-5
# The tail's storage type (see the module).
TAIL_DTYPE = np.float16
# Rows rotated (and, for a full scan, widened back to float32) at a time: bounds the
# temporaries to a few MB however many names the graph has.
BLOCK_ROWS = 8192


class EntitySpace:
    """Unit entity vectors, rotated and split into a head and a tail (see the module)."""

    def __init__(self, head: np.ndarray, tail: np.ndarray, basis: np.ndarray) -> None:
        self._head = head
        self._tail = tail
        self._tail_norms = _row_norms(tail) if tail.shape[1] else None
        self._basis = basis  # (dim, dim): rotated = original @ basis

    @classmethod
    def build(cls, unit: np.ndarray, seed: int = 0) -> EntitySpace:
        """From unit rows (n, dim), float32."""
        n, dim = unit.shape
        basis = _axes(unit, seed) if n > 1 else np.eye(dim, dtype=np.float32)
        split = min(HEAD_DIMS, dim)
        # Written in place: a temporary of the rotated rows stays in the process's heap
        # after it is freed (about 30 MB measured at 16,384 rows a block).
        unit = np.ascontiguousarray(unit, dtype=np.float32)
        head = np.matmul(unit, np.ascontiguousarray(basis[:, :split]))
        tail_basis = np.ascontiguousarray(basis[:, split:])
        tail = np.empty((n, dim - split), dtype=TAIL_DTYPE)
        for start in range(0, n, BLOCK_ROWS):
            tail[start : start + BLOCK_ROWS] = unit[start : start + BLOCK_ROWS] @ tail_basis
        return cls(head, tail, basis)

    def __len__(self) -> int:
        return int(self._head.shape[0])

    @property
    def nbytes(self) -> int:
        """Bytes held for the vectors (the head, the tail and its norms, the basis)."""
        norms = self._tail_norms.nbytes if self._tail_norms is not None else 0
        return int(self._head.nbytes + self._tail.nbytes + norms + self._basis.nbytes)

    def vectors(self, positions: np.ndarray) -> np.ndarray:
        """The unit vectors of ``positions``, in the original coordinates."""
        rotated = np.hstack([self._head[positions], self._tail[positions].astype(np.float32)])
        return np.asarray(rotated @ self._basis.T)

    def cosines(self, positions: np.ndarray, vector: np.ndarray) -> np.ndarray:
        """Cosine of each position's vector with ``vector`` (any length but zero)."""
        q_head, q_tail = self._rotate(vector)
        out = self._head[positions] @ q_head
        if q_tail.size:
            out = out + self._tail[positions].astype(np.float32) @ q_tail
        return np.asarray(out, dtype=np.float64)

    def nearest(
        self, vector: np.ndarray, k: int, min_score: float | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Positions and cosines of the ``k`` closest vectors, best first (ties: the lower
        position), only those at ``min_score`` or more when it is given."""
        if k <= 0 or len(self) == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        q_head, q_tail = self._rotate(vector)
        coarse = self._head @ q_head
        if min_score is None or self._tail_norms is None:
            # every name read in full (a vector no wider than the head has no tail)
            positions = np.arange(len(self))
            scores = coarse + self._tail_products(q_tail) if q_tail.size else coarse
        else:
            bound = coarse + float(np.linalg.norm(q_tail)) * self._tail_norms
            positions = np.flatnonzero(bound >= min_score - SLACK)
            scores = coarse[positions] + self._tail[positions].astype(np.float32) @ q_tail
        if min_score is not None:
            keep = scores >= min_score
            positions, scores = positions[keep], scores[keep]
        if k < scores.size:
            part = np.argpartition(-scores, k - 1)[:k]
            positions, scores = positions[part], scores[part]
        order = np.lexsort((positions, -scores))
        return positions[order], np.asarray(scores[order], dtype=np.float64)

    def _tail_products(self, q_tail: np.ndarray) -> np.ndarray:
        """Every held tail times ``q_tail``, a block at a time."""
        out = np.empty(len(self), dtype=np.float32)
        for start in range(0, len(self), BLOCK_ROWS):
            block = self._tail[start : start + BLOCK_ROWS].astype(np.float32)
            out[start : start + BLOCK_ROWS] = block @ q_tail
        return out

    def _rotate(self, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q = np.asarray(vector, dtype=np.float32)
        q = (q / (np.linalg.norm(q) or 1.0)).astype(np.float32) @ self._basis
        split = self._head.shape[1]
        return q[:split], q[split:]


def _row_norms(rows: np.ndarray) -> np.ndarray:
    """Euclidean length of each row, in float32, a block at a time."""
    out = np.empty(rows.shape[0], dtype=np.float32)
    for start in range(0, rows.shape[0], BLOCK_ROWS):
        block = rows[start : start + BLOCK_ROWS].astype(np.float32)
        out[start : start + BLOCK_ROWS] = np.linalg.norm(block, axis=1)
    return out


def _axes(unit: np.ndarray, seed: int) -> np.ndarray:
    """The eigenvectors of the rows' second moment, largest first, as columns (float32).
    Not centred: the head should carry the rows' energy, their common direction included."""
    n = unit.shape[0]
    rng = np.random.default_rng(seed)
    rows = unit if n <= AXIS_SAMPLE else unit[np.sort(rng.choice(n, AXIS_SAMPLE, replace=False))]
    sample = np.asarray(rows, dtype=np.float64)
    values, vectors = np.linalg.eigh(sample.T @ sample)
    return np.ascontiguousarray(vectors[:, np.argsort(-values)], dtype=np.float32)
