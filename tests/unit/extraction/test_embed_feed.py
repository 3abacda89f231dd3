import threading
from collections.abc import Sequence

import pytest

from extraction.embed_feed import EmbeddingFeed, LockedEmbedder
from retrieval.embedder import SentenceTransformerEmbedder


def test_batches_come_back_in_order(embedder: SentenceTransformerEmbedder) -> None:
    batches = [["alpha"], [], ["beta", "gamma"]]
    with EmbeddingFeed(LockedEmbedder(embedder), batches, max_ahead_rows=1) as feed:
        rows = [feed.next() for _ in batches]
    assert [len(r) for r in rows] == [1, 0, 2]
    direct = embedder.embed(["beta"])[0]
    assert rows[2][0] == pytest.approx(direct, abs=1e-5)


class _Failing:
    """An embedder whose model fails: the error must reach the consumer, not vanish."""

    model_name = "failing"
    dimension = 3

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise RuntimeError("model exploded")

    def count_tokens(self, text: str) -> int:
        return 1


def test_worker_errors_are_raised_by_next() -> None:
    with EmbeddingFeed(_Failing(), [["a"], ["b"]]) as feed, pytest.raises(RuntimeError):
        feed.next()


def test_leaving_early_stops_the_worker(embedder: SentenceTransformerEmbedder) -> None:
    before = threading.active_count()
    with EmbeddingFeed(embedder, [["a"]] * 50, max_ahead_rows=1) as feed:
        feed.next()
    assert threading.active_count() <= before
