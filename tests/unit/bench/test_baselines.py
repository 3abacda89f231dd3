"""The BM25 and exact-cosine baselines rank whole passages (title and text)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.baselines import Bm25Ranker, DenseRanker, passage_vectors
from bench.datasets import Passage
from retrieval.embedder import SentenceTransformerEmbedder

PASSAGES = [
    Passage(0, "Gravel", "Small loose stones used for paths and roads."),
    Passage(1, "Ouse Valley Viaduct", "A railway bridge in Sussex built in 1841."),
    Passage(2, "Siamese cat", "A breed of domestic cat from Thailand with blue eyes."),
    Passage(3, "Harbour", "A sheltered body of water where ships are moored."),
]


def test_bm25_ranks_title_and_text_matches_and_drops_non_matches() -> None:
    bm25 = Bm25Ranker(PASSAGES)
    # "viaduct" occurs only in a title.
    assert bm25.rank("Which viaduct crosses the Ouse?", 10) == [1]
    assert bm25.rank("blue eyes breed", 2)[0] == 2
    assert bm25.rank("the of and", 10) == []  # stop words only


def test_dense_is_exact_cosine_over_passages(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    vectors = passage_vectors(PASSAGES, embedder, tmp_path)
    assert vectors.shape == (4, embedder.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    dense = DenseRanker(vectors, embedder)
    ranked = dense.rank("a feline pet with sapphire eyes", 4)
    assert ranked[0] == 2 and sorted(ranked) == [0, 1, 2, 3]
    assert dense.rank("where boats dock", 1) == [3]


def test_passage_vectors_are_cached_per_model_and_corpus_size(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    first = passage_vectors(PASSAGES, embedder, tmp_path)
    (cache,) = tmp_path.glob("dense-*.npy")
    np.save(cache, first * 0.5)  # a changed cache proves the second call read it
    assert np.allclose(passage_vectors(PASSAGES, embedder, tmp_path), first * 0.5)
    fewer = passage_vectors(PASSAGES[:2], embedder, tmp_path)
    assert fewer.shape[0] == 2
    assert np.allclose(fewer, first[:2], atol=1e-5)


@pytest.mark.parametrize("depth", [1, 3])
def test_depth_bounds_the_ranking(depth: int) -> None:
    assert len(Bm25Ranker(PASSAGES).rank("cat bridge stones harbour", depth)) == depth
