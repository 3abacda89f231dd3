"""Okapi BM25 over fixed texts, as a sparse text x term matrix of raw counts (so ``k1`` and
``b`` are query-time values). The one implementation behind the in-memory read model's lexical
candidates (``retrieval.lexical``) and the FalkorDB store's full-text reads
(``graph_store.falkordb.lexical``); each passes its own tokenizer."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
from scipy import sparse

_WORD = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class Bm25Index:
    """Okapi BM25 with Lucene's non-negative IDF ``ln(1 + (N - df + 0.5) / (df + 0.5))``."""

    def __init__(
        self, texts: Sequence[str], tokenize: Callable[[str], list[str]] = tokenize
    ) -> None:
        self._tokenize = tokenize
        vocab: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        counts: list[int] = []
        lengths = np.zeros(len(texts), dtype=np.float64)
        for row, text in enumerate(texts):
            tokens = self._tokenize(text)
            lengths[row] = len(tokens)
            for term, count in Counter(tokens).items():
                rows.append(row)
                cols.append(vocab.setdefault(term, len(vocab)))
                counts.append(count)
        self.vocab = vocab
        # Column-major: a query reads only the postings of its own terms.
        self.tf = sparse.csc_matrix(
            (np.asarray(counts, dtype=np.float64), (rows, cols)),
            shape=(len(texts), len(vocab)),
        )
        self.tf.sort_indices()
        self.lengths = lengths
        self.avg_length = float(lengths.mean()) if len(texts) else 0.0
        n = len(texts)
        df = np.diff(self.tf.indptr).astype(np.float64)
        self.idf = np.log1p((n - df + 0.5) / (df + 0.5))
        # Length normalisation per (k1, b): N floats that depend on the settings only, so
        # built on the first query that uses them instead of on every query.
        self._norms: dict[tuple[float, float], np.ndarray] = {}

    def norm(self, k1: float, b: float) -> np.ndarray:
        """``k1 * (1 - b + b * length / avg_length)`` per chunk, computed once per setting."""
        key = (k1, b)
        cached = self._norms.get(key)
        if cached is None:
            cached = k1 * (1.0 - b + b * self.lengths / self.avg_length)
            cached.setflags(write=False)
            # A racing thread may compute the same array; either copy is correct.
            self._norms[key] = cached
        return cached

    def scores(self, query: str, k1: float, b: float) -> np.ndarray:
        """BM25 score of every chunk (0 where no query term occurs); repeated query terms
        count once."""
        out = np.zeros(self.tf.shape[0], dtype=np.float64)
        if self.avg_length <= 0:
            return out
        norm = self.norm(k1, b)
        indptr, indices, data = self.tf.indptr, self.tf.indices, self.tf.data
        for term in dict.fromkeys(self._tokenize(query)):
            col = self.vocab.get(term)
            if col is None:
                continue
            lo, hi = indptr[col], indptr[col + 1]
            rows = indices[lo:hi]
            tf = data[lo:hi]
            # Postings of one term hold each row once, so fancy-index += is exact.
            out[rows] += self.idf[col] * tf * (k1 + 1.0) / (tf + norm[rows])
        return out

    def top(
        self, query: str, k: int, k1: float, b: float, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """The ``k`` best chunks with a positive score, best first, optionally masked."""
        s = self.scores(query, k1, b)
        if allowed is not None:
            s = np.where(allowed, s, 0.0)
        hit = np.flatnonzero(s > 0)
        if hit.size > k:
            hit = hit[np.argpartition(-s[hit], k - 1)[:k]]
        # Ties broken by chunk position for a stable order.
        order = hit[np.lexsort((hit, -s[hit]))]
        return [(int(i), float(s[i])) for i in order]


def idf(n: int, df: int) -> float:
    """The IDF ``Bm25Index`` uses, for tests and explanations."""
    return math.log1p((n - df + 0.5) / (df + 0.5))
