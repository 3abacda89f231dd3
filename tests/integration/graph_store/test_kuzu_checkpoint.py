"""A failed CHECKPOINT after a commit is raised, not swallowed: the store's crash safety rests
on every commit being checkpointed (KuzuGraphStore._checkpoint)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kuzu
import pytest

from core.errors import StoreError
from graph_store.kuzu.store import KuzuGraphStore
from tests.integration.tiny_graphs import DIM, graph


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[KuzuGraphStore]:
    s = KuzuGraphStore(tmp_path / "g.kuzu", DIM, "test-model")
    s.open()
    s.init_schema()
    yield s
    s.close()


def test_checkpoint_blocked_by_an_open_transaction_fails_loudly(store: KuzuGraphStore) -> None:
    # A real condition: a read transaction left open on another connection (as a reader
    # outside the store's lock could) makes Kùzu give up on the checkpoint after ~6 s.
    store._checkpoint_attempts = 1
    other = kuzu.Connection(store._db)
    other.execute("BEGIN TRANSACTION READ ONLY")
    other.execute("MATCH (d:Document) RETURN count(d)")
    # init_schema on a current store only sets its Meta rows, each committed on its own, then
    # checkpoints: the checkpoint is what the open transaction blocks.
    with pytest.raises(StoreError, match="CHECKPOINT failed 1 time"):
        store.init_schema()
    other.execute("COMMIT")
    store.upsert_documents([graph("da", ["the crisis cafes open"], ["northdale"], [])])
    # With the full-text indexes down, a document write's one checkpoint is the one Kùzu runs
    # inside COMMIT (the batch is past its threshold): that fails as our error too. Kùzu has
    # committed by then, so the write stands; the next checkpoint folds it in.
    other.execute("BEGIN TRANSACTION READ ONLY")
    other.execute("MATCH (d:Document) RETURN count(d)")
    with pytest.raises(StoreError, match="COMMIT failed"):
        store.upsert_documents([graph("db", ["the crisis cafes close"], ["northdale"], [])])
    other.execute("COMMIT")
    assert set(store.document_states(["da", "db"])) == {"da", "db"}
    # With the straggler gone, writes checkpoint again.
    store.upsert_documents([graph("dc", ["the crisis cafes move"], ["northdale"], [])])
    assert set(store.document_states(["da", "db", "dc"])) == {"da", "db", "dc"}


class _FlakyCheckpoint:
    """The writer connection, whose next ``failures`` CHECKPOINTs raise as Kùzu's do."""

    def __init__(self, conn: Any, failures: int) -> None:
        self._conn = conn
        self.failures = failures
        self.checkpoints = 0

    def execute(self, query: str, *args: Any) -> Any:
        if query == "CHECKPOINT":
            self.checkpoints += 1
            if self.failures > 0:
                self.failures -= 1
                raise RuntimeError("Timeout waiting for active transactions to leave the system")
        return self._conn.execute(query, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def test_one_failed_checkpoint_is_retried(store: KuzuGraphStore) -> None:
    flaky = _FlakyCheckpoint(store._conn, failures=1)
    store._conn = flaky
    store.upsert_documents([graph("da", ["the crisis cafes open"], ["northdale"], [])])
    assert flaky.failures == 0
    assert flaky.checkpoints >= 2


def test_checkpoint_failing_every_attempt_raises_store_error(store: KuzuGraphStore) -> None:
    flaky = _FlakyCheckpoint(store._conn, failures=10)
    store._conn = flaky
    with pytest.raises(StoreError, match="CHECKPOINT failed 2 time"):
        store.upsert_documents([graph("da", ["the crisis cafes open"], ["northdale"], [])])
    assert flaky.checkpoints == 2
