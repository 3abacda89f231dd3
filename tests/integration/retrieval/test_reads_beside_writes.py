"""Reads do not wait for a write, and do not lose half of their answer to it: a write is held
open at a point the test controls (a real write on a second thread, stopped by an event inside
the store), and the read completes while it is held.

- Full-text: while another thread's write has the store's full-text index dropped, a hybrid
  search ranks by BM25 over the in-memory index of the last committed version (the store
  would answer no full-text hits then) and keeps its lexical half.
- Inside the commit section: a read of the in-memory read model completes while a write
  transaction is held inside its exclusive COMMIT section, where no store read can run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest

from core.errors import FulltextUnavailable
from extraction.loaders import SourceDocument
from graph_store.kuzu.store import KuzuGraphStore
from kg.container import Container
from retrieval.read_model import InMemoryReadModel

QUESTION = "Which harbour did the Quillon ferry serve?"
_WAIT_S = 120  # a bound on a hang, never a timing the test depends on
T = TypeVar("T")


def _docs() -> list[SourceDocument]:
    return [
        SourceDocument(
            f"/ferries/{i}.md",
            f"Ferry line {i}",
            f"The Quillon ferry {i} served the harbour of Dunmere {i}. It sailed twice a day.",
        )
        for i in range(4)
    ] + [
        SourceDocument("/other/a.md", "Orchards", "Apple orchards grow near the river Tessel."),
    ]


@contextmanager
def _write_held(container: Container, inside_commit: bool) -> Iterator[None]:
    """A real ingest on another thread, held open until the block ends: right after its write
    dropped the full-text indexes, or (``inside_commit``) inside the exclusive section of
    its COMMIT, where no other transaction may run."""
    store = _store(container)
    reached, release = threading.Event(), threading.Event()
    drop, exclusive = store._drop_fulltext, store._exclusive
    state = {"dropped": False, "held": False}
    outcome: list[BaseException | None] = []

    def hold() -> None:
        state["held"] = True
        reached.set()
        assert release.wait(_WAIT_S)

    def dropped() -> None:
        drop()
        state["dropped"] = True
        if not inside_commit and not state["held"]:
            hold()

    @contextmanager
    def held_exclusive() -> Iterator[None]:
        with exclusive():
            # The writer's first exclusive hold after its drop is its transaction's COMMIT.
            if inside_commit and state["dropped"] and not state["held"]:
                hold()
            yield

    def ingest() -> None:
        try:
            container.ingestor().ingest_documents([LATE])
            outcome.append(None)
        except BaseException as exc:  # reported below, not lost on the thread
            outcome.append(exc)
            reached.set()

    store._drop_fulltext = dropped  # type: ignore[method-assign]
    store._exclusive = held_exclusive  # type: ignore[method-assign]
    writer = threading.Thread(target=ingest, name="held-ingest")
    writer.start()
    try:
        assert reached.wait(_WAIT_S), "the write did not reach the point held"
        assert not outcome, f"the write failed: {outcome}"
        yield
    finally:
        release.set()
        writer.join(_WAIT_S)
        store._drop_fulltext = drop  # type: ignore[method-assign]
        store._exclusive = exclusive  # type: ignore[method-assign]
    assert outcome == [None]


def _completes(read: Callable[[], T]) -> T:
    """``read`` on another thread, which must finish while the write is held: a read queued
    behind the write would never finish before the write is released."""
    got: list[T] = []
    reader = threading.Thread(target=lambda: got.append(read()), name="reader")
    reader.start()
    reader.join(_WAIT_S)
    assert not reader.is_alive(), "the read waited for the write held open"
    assert got, "the read failed (see the thread's traceback above)"
    return got[0]


LATE = SourceDocument("/late/q.md", "Late ferry", "The Quillon ferry later served Orsk harbour.")


def _store(container: Container) -> KuzuGraphStore:
    store = container.store
    if not isinstance(store, KuzuGraphStore):
        pytest.skip("the embedded store's full-text index")
    return store


def test_hybrid_keeps_its_lexical_half_while_a_write_rebuilds_full_text(
    container: Container,
) -> None:
    container.ingestor().ingest_documents(_docs())
    store, searcher = _store(container), container.searcher()
    before = searcher.retrieve(QUESTION, k=3, preset="hybrid").results
    assert any(r.components["bm25"] > 0 for r in before)

    with _write_held(container, inside_commit=False):
        with pytest.raises(FulltextUnavailable):
            store.fulltext_chunks(QUESTION, 5)  # the store has none to give now
        during = _completes(lambda: searcher.retrieve(QUESTION, k=3, preset="hybrid").results)

    # BM25 of the last committed version (the in-memory index), not an empty lexical half.
    assert any(r.components["bm25"] > 0 for r in during)
    assert {r.doc_title for r in during} <= {f"Ferry line {i}" for i in range(4)}
    assert {r.chunk_id for r in during} == {r.chunk_id for r in before}
    assert all("Quillon" in r.text for r in during)


def test_a_read_completes_while_a_write_is_held_inside_its_commit(
    container: Container,
) -> None:
    container.ingestor().ingest_documents(_docs())
    store = _store(container)
    model = container.read_model()
    assert isinstance(model, InMemoryReadModel)
    searcher = container.searcher()
    version = model.version()
    with _write_held(container, inside_commit=True):
        # No store read could run now (the write holds the exclusive COMMIT section); the
        # search answers from the read model's last committed version.
        got = _completes(lambda: searcher.retrieve(QUESTION, k=3, preset="graph").results)
        assert model.version() == version
    assert got and all("Quillon" in r.text for r in got)
    assert store.graph_version() != version  # the held write committed once released
