"""The two reference rankers every kg-first preset is compared with, over whole passages.

``bm25``: bm25s over each passage's title and text, its own index in memory.
``dense``: the store's embedder, exact cosine between the question and each passage's
title + text (no approximate index), so it is the ceiling of plain vector search.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from bench.datasets import Passage
from retrieval.embedder import Embedder

ProgressHook = Callable[[str, int, int], None]


def passage_text(p: Passage) -> str:
    return f"{p.title}\n{p.text}"


class Bm25Ranker:
    def __init__(self, passages: Sequence[Passage]) -> None:
        import bm25s

        self._bm25s = bm25s
        tokens = bm25s.tokenize(
            [passage_text(p) for p in passages], stopwords="en", show_progress=False
        )
        self._retriever = bm25s.BM25()
        self._retriever.index(tokens, show_progress=False)
        self._size = len(passages)

    def rank(self, question: str, depth: int) -> list[int]:
        query = self._bm25s.tokenize(
            [question], stopwords="en", show_progress=False, return_ids=False
        )
        docs, scores = self._retriever.retrieve(
            query, k=min(depth, self._size), show_progress=False, n_threads=1
        )
        # Passages sharing no term with the question score 0 and would rank arbitrarily.
        return [int(d) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]


class DenseRanker:
    def __init__(self, vectors: np.ndarray, embedder: Embedder) -> None:
        self._vectors = vectors
        self._embedder = embedder

    def rank(self, question: str, depth: int) -> list[int]:
        q = np.asarray(self._embedder.embed([question])[0], dtype=np.float32)
        scores = self._vectors @ (q / (np.linalg.norm(q) or 1.0))
        order = np.argsort(-scores, kind="stable")[:depth]
        return [int(i) for i in order]


def passage_vectors(
    passages: Sequence[Passage],
    embedder: Embedder,
    cache_dir: Path,
    progress: ProgressHook | None = None,
    batch: int = 256,
) -> np.ndarray:
    """Unit-length passage embeddings, cached next to the bench store per embedding model."""
    tag = hashlib.sha1(embedder.model_name.encode("utf-8")).hexdigest()[:10]
    cache = cache_dir / f"dense-{tag}.npy"
    if cache.exists():
        cached: np.ndarray = np.load(cache)
        if cached.shape[0] == len(passages):
            return cached
    rows: list[list[float]] = []
    texts = [passage_text(p) for p in passages]
    for start in range(0, len(texts), batch):
        rows.extend(embedder.embed(texts[start : start + batch]))
        if progress:
            progress("embed", min(start + batch, len(texts)), len(texts))
    raw = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    vectors: np.ndarray = (raw / np.where(norms == 0, 1.0, norms)).astype(np.float32)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(cache, vectors)
    return vectors
