"""A FalkorDB store on a fresh data directory per test (its own redis-server, stopped after)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graph_store.falkordb.store import FalkorGraphStore
from tests.integration.tiny_graphs import DIM


def make_store(path: Path) -> FalkorGraphStore:
    return FalkorGraphStore(path, DIM, "test-model")


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[FalkorGraphStore]:
    s = make_store(tmp_path / "g.falkordb")
    s.open()
    s.init_schema()
    s.init_schema()  # idempotent
    try:
        yield s
    finally:
        s.close()
