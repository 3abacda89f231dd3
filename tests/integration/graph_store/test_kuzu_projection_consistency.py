"""The embedded store's reads of several queries (the projection, a neighbourhood) are one
graph version, and a write runs beside them: a batch written between two of the queries (a
real write from a second thread, timed by a hook on the store's query method; the read goes on
once the write's statements have all run) is in none of them, and the next read has it."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graph_schema import DocumentGraph
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


LATE = graph("d1", ["late 1"], ["a1"], [("a1", "a0")])


def _commit_between_reads(
    store: KuzuGraphStore, after: str = "proj_chunks", doc: DocumentGraph = LATE
) -> list[threading.Thread]:
    """Make the store write ``doc`` from another thread right after its read ``after``, and
    go on reading once that write's statements have all run (its transaction is written; its
    COMMIT waits for no reader to be left)."""
    read, columns, write_batch = store._q, store._q_columns, store._write_batch
    written = threading.Event()
    writers: list[threading.Thread] = []

    def write_hooked(graphs: Sequence[DocumentGraph]) -> None:
        write_batch(graphs)
        written.set()

    def write_after(name: str) -> None:
        if name == after and not writers:
            writer = threading.Thread(target=store.upsert_documents, args=([doc],))
            writers.append(writer)
            writer.start()
            assert written.wait(timeout=120), "the write did not run beside the read"

    def hooked(name: str, **params: Any) -> list[list[Any]]:
        rows = read(name, **params)
        write_after(name)
        return rows

    def hooked_columns(name: str) -> Any:
        table = columns(name)  # the projection's vector-carrying reads, as Arrow tables
        write_after(name)
        return table

    store._q = hooked  # type: ignore[method-assign]
    store._q_columns = hooked_columns  # type: ignore[method-assign]
    store._write_batch = write_hooked  # type: ignore[method-assign]
    return writers


def _consistent(data: ProjectionData) -> None:
    docs, chunks, entities = set(data.doc_ids), set(data.chunk_ids), set(data.entity_ids)
    assert set(data.chunk_docs) == docs
    assert len(data.chunk_embeddings) == len(data.chunk_ids) == len(data.chunk_texts)
    assert {c for c, _, _ in data.mentions} <= chunks
    assert {e for _, e, _ in data.mentions} <= entities
    assert {s for s, _, _, _ in data.relations} | {t for _, t, _, _ in data.relations} <= entities


def test_a_commit_between_the_projection_reads_is_in_none_of_them(
    store: KuzuGraphStore,
) -> None:
    before = store.graph_version()
    writers = _commit_between_reads(store)
    data = store.projection_data()
    for w in writers:
        w.join()
    assert len(writers) == 1  # a batch was written while the projection was read
    _consistent(data)
    # The version the read began on, whole: the commit is in none of its parts.
    assert data.version == before != store.graph_version() and set(data.doc_ids) == {"d0"}
    after = store.projection_data()
    _consistent(after)
    assert after.version == store.graph_version() and set(after.doc_ids) == {"d0", "d1"}


def test_a_commit_between_the_neighbourhood_reads_is_in_none_of_them(
    store: KuzuGraphStore,
) -> None:
    # The commit adds a relation between the two entities the neighbourhood has just listed.
    writers = _commit_between_reads(
        store,
        after="neighbourhood_one_hop",
        doc=graph("d1", ["late 1"], ["a0", "b0"], [("b0", "a0")]),
    )
    got = store.neighbourhood("a0", hops=1)
    for w in writers:
        w.join()
    assert len(writers) == 1
    assert {n.id for n in got.nodes} == {"a0", "b0"}
    assert [(e.source, e.target) for e in got.edges] == [("a0", "b0")]
    again = store.neighbourhood("a0", hops=1)
    assert sorted((e.source, e.target) for e in again.edges) == [("a0", "b0"), ("b0", "a0")]


def test_the_neighbourhood_route_ranks_its_nodes_on_the_neighbourhood_s_version(
    store: KuzuGraphStore,
) -> None:
    """The API's neighbourhood is two reads (the subgraph, then each node's rank) in one
    snapshot (``GraphStore.read_snapshot``, which the entity routes hold): a commit that
    gives ``a0`` a second mention, asked for between them, is in neither (without the
    snapshot it lands in between: the ranks read waits for that COMMIT)."""
    writers = _commit_between_reads(
        store, after="relations_among", doc=graph("d2", ["again"], ["a0"], [])
    )
    exclusive, write_batch = store._exclusive, store._write_batch
    written, commit_asked = threading.Event(), threading.Event()

    def write_hooked(graphs: Sequence[DocumentGraph]) -> None:
        write_batch(graphs)
        written.set()

    def asking() -> AbstractContextManager[None]:
        if written.is_set():  # the writer's first exclusive hold after its statements
            commit_asked.set()
        return exclusive()

    store._write_batch = write_hooked  # type: ignore[method-assign]
    store._exclusive = asking  # type: ignore[method-assign]
    with store.read_snapshot():
        got = store.neighbourhood("a0", hops=1)
        assert commit_asked.wait(120), "the write did not come to its COMMIT"
        ranks = store.entity_ranks([n.id for n in got.nodes])
    for w in writers:
        w.join()
    assert len(writers) == 1  # the commit came between the two reads
    assert ranks["a0"].mentions == 1
    assert store.entity_ranks(["a0"])["a0"].mentions == 2  # and the next read has it


def test_the_columnar_projection_equals_the_row_one(store: KuzuGraphStore) -> None:
    """Vectors read as Arrow float32 matrices hold what the rows hold, every other field
    alike."""
    from graph_store.rows import read_projection

    store.upsert_documents([LATE])
    columnar = store.projection_data()
    rows = read_projection(columnar.version, lambda name: store._q(name))
    assert isinstance(columnar.chunk_embeddings, np.ndarray)
    assert columnar.chunk_embeddings.dtype == np.float32
    for name in columnar.__dataclass_fields__:
        got, want = getattr(columnar, name), getattr(rows, name)
        if name.endswith("_embeddings"):
            assert np.array_equal(got, np.asarray(want, dtype=np.float32)), name
        else:
            assert got == want, name
