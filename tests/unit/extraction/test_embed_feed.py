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
    direct = embedder.embed_bulk(["beta", "gamma"])  # the same model call as the feed's
    assert rows[2] == direct


class _Failing:
    """An embedder whose model fails: the error must reach the consumer, not vanish."""

    model_name = "failing"
    dimension = 3

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise RuntimeError("model exploded")

    def count_tokens(self, text: str) -> int:
        return 1


class _OneByOne(_Failing):
    """Counts tokens one text a call only: the feed plans with it all the same."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[float(len(t)), 0.0, 0.0] for t in texts]


def test_a_model_without_a_batch_count_is_counted_one_text_a_call() -> None:
    with EmbeddingFeed(LockedEmbedder(_OneByOne()), [["ab", "c"], ["def"]]) as feed:
        assert feed.next() == [[2.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
        assert feed.next() == [[3.0, 0.0, 0.0]]


def test_the_feed_counts_a_batch_s_tokens_in_one_call() -> None:
    calls: list[int] = []

    class Counting(SentenceTransformerEmbedder):
        def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
            calls.append(len(texts))
            return super().count_tokens_many(texts)

        def count_tokens(self, text: str) -> int:
            raise AssertionError("counted one text at a time")

    model = Counting()
    with EmbeddingFeed(LockedEmbedder(model), [["alpha", "beta"], ["gamma"]]) as feed:
        assert len(feed.next()) == 2 and len(feed.next()) == 1
    assert calls == [2, 1]


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
    """The second copy: each call it runs opens the gate the first copy is waiting at, and is
    recorded. It embeds as ``value`` and counts ``2`` tokens a text, or the text's length."""

    model_name = "gate"
    dimension = 1

    def __init__(self, gate: _Gate, value: float = 2.0, by_length: bool = False) -> None:
        self.gate, self.value, self.by_length = gate, value, by_length
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        self.gate.open.set()
        return [[self.value] for _ in texts]

    def count_tokens(self, text: str) -> int:
        return len(text) if self.by_length else 2


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


def test_a_waiting_consumer_embeds_its_batch_on_the_second_copy() -> None:
    gate = _Gate()
    replica = _Opener(gate, value=1.0, by_length=True)
    locked = LockedEmbedder(gate)
    batch = ["a", "bb", "ccc", "dddd"]  # two units of two, shortest first
    with (
        locked.names_beside(replica),
        EmbeddingFeed(locked, [batch], unit_rows=2) as feed,
    ):
        assert gate.entered.wait(timeout=60)  # the worker holds the first unit
        assert feed.next() == [[1.0]] * 4
    assert replica.calls == [["ccc", "dddd"]]
    assert locked.seconds["chunks"] > 0


class _HeldFirst:
    """The real model, whose first call waits until the second copy has run a unit."""

    def __init__(self, inner: SentenceTransformerEmbedder, opened: threading.Event) -> None:
        self.inner, self.opened, self.entered = inner, opened, threading.Event()
        self.model_name, self.dimension = inner.model_name, inner.dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.entered.set()
        assert self.opened.wait(timeout=60), "the consumer never helped"
        return self.inner.embed_bulk(texts)  # what the feed runs on the real model

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)


class _Opens(_HeldFirst):
    """The real second copy: each call it runs lets the first copy go on."""

    calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self.inner.embed_bulk(texts)
        self.calls += 1
        self.opened.set()
        return vectors


def test_who_embeds_a_unit_never_changes_a_vector(
    embedder: SentenceTransformerEmbedder,
) -> None:
    texts = [f"Ann Lee wrote {n} letters to the Lantern Institute in Millbrook." for n in range(40)]
    texts += ["Greyfoss", "the harbour towns of the north coast and their fishing fleets"] * 5
    batches = [texts[:30], texts[30:]]
    with EmbeddingFeed(LockedEmbedder(embedder), batches, unit_rows=8) as feed:
        alone = [feed.next() for _ in batches]
    opened = threading.Event()
    first, second = _HeldFirst(embedder, opened), _Opens(embedder.replica(), opened)
    locked = LockedEmbedder(first)
    with locked.names_beside(second), EmbeddingFeed(locked, batches, unit_rows=8) as feed:
        assert first.entered.wait(timeout=60)  # the worker holds the first unit
        helped = [feed.next() for _ in batches]
    assert second.calls >= 1  # the consumer ran units of its batch on the second copy
    assert alone == helped  # the same units, whichever copy ran each: bit for bit
    assert [len(b) for b in helped] == [30, 20]
