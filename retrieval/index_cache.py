"""The graph index of the latest graph version, built so that readers do not queue for it.

Outside a write, a reader that finds the store's graph version moved builds the new index
itself (one build at a time; a sequence of write-then-read sees its write); readers arriving
while it builds are answered from the last index built. While an ingest
writes (``writing()``), a reader is answered from the last index built, which holds one
committed version, without even a store read (it would queue behind the write lock); the
writer builds the index of what it wrote before the call returns, so what an ingest call
writes becomes visible to searches together, when the call completes.

A rebuild on a background thread at each commit was tried: its projection reads raced the
commits, fell back to the read that holds writers off, and store reads queued behind the
writer waiting for it (load check, seed 1125, two runs on a differently loaded machine: entity
details p95 507 -> 1,403 ms and neighbourhood 405 -> 1,944 ms, search only 2,310 -> 3,127).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from graph_store import GraphStore
from retrieval.graph_index import GraphIndex

log = logging.getLogger(__name__)


class GraphIndexCache:
    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self._index: GraphIndex | None = None
        self._build_lock = threading.Lock()  # one build at a time
        self._state = threading.Lock()  # guards the count below
        self._writers = 0

    def get(self) -> GraphIndex:
        """The index of the store's current graph version; while a write is in progress and
        an index exists, the last one built."""
        current = self._index
        if current is not None and self._writing():
            return current
        if current is not None and current.version == self._store.graph_version():
            return current
        if current is not None and self._build_lock.locked():
            # Another reader builds the new version (seconds on a large graph, and a writer in
            # another process can move the version at every batch): answer from the last one
            # built rather than queue behind it. The reader that started the build waits.
            return current
        return self._build()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Readers take the last built index while this is held. A successful write ends by
        building the index of what it wrote, readers still served the last one meanwhile, so
        none waits for that build either (after a failure the next reader builds)."""
        with self._state:
            self._writers += 1
        try:
            yield
            if self._index is not None:  # an index nobody asked for is not built
                try:
                    self._build()
                except Exception:  # the write stands; the next reader builds or reports it
                    log.exception("building the graph index after a write failed")
        finally:
            with self._state:
                self._writers -= 1

    def _writing(self) -> bool:
        with self._state:
            return self._writers > 0

    def _build(self) -> GraphIndex:
        with self._build_lock:
            current = self._index
            # Read under the lock: a build that waited here for another may find it current.
            if current is None or current.version != self._store.graph_version():
                current = self._index = GraphIndex(self._store.projection_data())
            return current
