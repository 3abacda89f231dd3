"""A writer this process does not see (another process's ingest) moves the graph version; the
first reader to notice builds the new in-memory index, and readers arriving meanwhile are
answered from the last index built instead of queueing behind that build. The build is held
at a point the test controls (inside the store's projection read), never timed."""

from __future__ import annotations

import threading
from typing import Any

from extraction.loaders import SourceDocument
from kg.container import Container
from retrieval.graph_index import GraphIndex
from retrieval.read_model import InMemoryReadModel
from tests.stores import both_stores

pytestmark = both_stores

_WAIT_S = 120  # a bound on a hang, never a timing the test depends on


def _doc(n: int) -> SourceDocument:
    return SourceDocument(
        f"/cache/{n}.md", f"Lighthouse {n}", f"The lighthouse at Varne {n} was lit in {1850 + n}."
    )


def test_readers_meanwhile_get_the_last_index_while_one_builds(container: Container) -> None:
    container.ingestor().ingest_documents([_doc(0)])
    model = InMemoryReadModel.from_settings(container.store, container.settings.retrieval)
    old = model.index()
    # The other writer: an ingest through this store but not through this read model.
    container.ingestor().ingest_documents([_doc(1)])
    assert container.store.graph_version() != old.version

    store: Any = container.store
    projection = store.projection_data
    reached, release = threading.Event(), threading.Event()

    def held() -> Any:
        reached.set()
        assert release.wait(_WAIT_S)
        return projection()

    store.projection_data = held
    built: list[GraphIndex] = []
    builder = threading.Thread(target=lambda: built.append(model.index()), name="builder")
    builder.start()
    try:
        assert reached.wait(_WAIT_S), "the first reader did not start building"
        got: list[GraphIndex] = []
        reader = threading.Thread(target=lambda: got.append(model.index()), name="reader")
        reader.start()
        reader.join(_WAIT_S)
        assert not reader.is_alive(), "the reader queued behind the build"
        assert got == [old]
    finally:
        release.set()
        builder.join(_WAIT_S)
        store.projection_data = projection
    assert built and built[0].version == container.store.graph_version()
    assert model.index() is built[0]
    assert len(built[0].docs) == 2 and len(old.docs) == 1
