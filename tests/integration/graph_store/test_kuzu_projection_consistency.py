"""The embedded store's projection is one graph version although it is read in several
queries: a batch committed between two of them (a real write from a second thread, timed by a
hook on the store's query method) is not half in it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graph_store import ProjectionData
from graph_store.kuzu.store import KuzuGraphStore
from tests.integration.tiny_graphs import DIM, graph


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[KuzuGraphStore]:
    s = KuzuGraphStore(tmp_path / "g.kuzu", DIM, "test-model")
    with s:
        s.init_schema()
        s.upsert_documents([graph("d0", ["alpha one", "alpha two"], ["a0", "b0"], [("a0", "b0")])])
        yield s


def _commit_between_reads(store: KuzuGraphStore, commits: int) -> list[threading.Thread]:
    """Make the store commit a new document from another thread right after each of its next
    ``commits`` chunk reads of a projection; the last one is not waited for (it may have to
    wait for the reader)."""
    read = store._q
    writers: list[threading.Thread] = []

    def hooked(name: str, **params: Any) -> list[list[Any]]:
        rows = read(name, **params)
        if name == "proj_chunks" and len(writers) < commits:
            n = len(writers) + 1
            doc = graph(f"d{n}", [f"late {n}"], [f"a{n}"], [(f"a{n}", "a0")])
            writer = threading.Thread(target=store.upsert_documents, args=([doc],))
            writers.append(writer)
            writer.start()
            if len(writers) < commits:
                writer.join()
        return rows

    store._q = hooked  # type: ignore[method-assign]
    return writers


def _consistent(data: ProjectionData) -> None:
    docs, chunks, entities = set(data.doc_ids), set(data.chunk_ids), set(data.entity_ids)
    assert set(data.chunk_docs) == docs
    assert len(data.chunk_embeddings) == len(data.chunk_ids) == len(data.chunk_texts)
    assert {c for c, _, _ in data.mentions} <= chunks
    assert {e for _, e, _ in data.mentions} <= entities
    assert {s for s, _, _, _ in data.relations} | {t for _, t, _, _ in data.relations} <= entities


def test_a_commit_between_the_projection_reads_is_not_half_in_it(store: KuzuGraphStore) -> None:
    writers = _commit_between_reads(store, commits=1)
    data = store.projection_data()
    for w in writers:
        w.join()
    assert len(writers) == 1  # a batch committed while the projection was read
    _consistent(data)
    assert data.version == store.graph_version() and set(data.doc_ids) == {"d0", "d1"}


def test_commits_at_every_optimistic_read_leave_the_last_one_to_hold_writers_off(
    store: KuzuGraphStore,
) -> None:
    writers = _commit_between_reads(store, commits=3)
    data = store.projection_data()
    for w in writers:
        w.join()
    assert len(writers) == 3
    _consistent(data)
    # The third write waited for the last read: the projection is the version before it.
    assert set(data.doc_ids) == {"d0", "d1", "d2"}
    assert data.version != store.graph_version()
