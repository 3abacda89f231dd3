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


class _Gate:
    """A model whose call waits until ``open`` is set: a chunk batch still running."""

    model_name = "gate"
    dimension = 1

    def __init__(self) -> None:
        self.open = threading.Event()
        self.entered = threading.Event()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.entered.set()
        assert self.open.wait(timeout=60), "the names were never embedded beside this call"
        return [[1.0] for _ in texts]

    def count_tokens(self, text: str) -> int:
        return 1


class _Opener:
    """The second copy: embedding names opens the gate the first copy is waiting at."""

    model_name = "gate"
    dimension = 1

    def __init__(self, gate: _Gate) -> None:
        self.gate = gate
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        self.gate.open.set()
        return [[2.0] for _ in texts]

    def count_tokens(self, text: str) -> int:
        return 2


def test_names_beside_run_while_a_chunk_batch_holds_the_first_model() -> None:
    gate = _Gate()
    replica = _Opener(gate)
    locked = LockedEmbedder(gate)
    with locked.names_beside(replica), EmbeddingFeed(locked, [["chunk"]]) as feed:
        assert gate.entered.wait(timeout=60)  # the feed's batch is inside the first model
        # On one model this call would wait for the batch, which waits for it: a deadlock.
        assert locked.embed(["a name"]) == [[2.0]]
        assert locked.count_tokens("a name") == 2
        assert feed.next() == [[1.0]]
    assert replica.calls == [["a name"]]
    assert locked.seconds["names"] > 0 and locked.seconds["chunks"] > 0


def test_names_go_back_to_the_first_model_after_the_block() -> None:
    gate = _Gate()
    gate.open.set()
    locked = LockedEmbedder(gate)
    with locked.names_beside(_Opener(_Gate())):
        pass
    assert locked.embed(["a name"]) == [[1.0]] and locked.count_tokens("x") == 1
