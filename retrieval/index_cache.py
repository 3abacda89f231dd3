"""The graph index of the latest graph version, built so that readers do not queue for it.

Outside a write, a reader that finds the store's graph version moved builds the new index
itself (one build at a time; a sequence of write-then-read sees its write). While an ingest
writes (``writing()``), a reader is answered from the last index built, which holds one
committed version, without a store read, and a rebuild of the newest version starts on a
background thread, so no request waits for the write lock, a projection read or a build while
batches commit; the writer builds the final version itself before it leaves ``writing()``.
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
        self._state = threading.Lock()  # guards the two fields below
        self._writers = 0
        self._rebuilding: threading.Thread | None = None

    def get(self, fresh: bool = False) -> GraphIndex:
        """The index of the store's current graph version; while a write is in progress and
        an index exists (and ``fresh`` is not asked), the last one built."""
        current = self._index
        if current is not None and not fresh and self._writing():
            # Not even the version is read here: a store read would queue behind the write
            # lock. The background rebuild reads it, and builds if it moved.
            self._rebuild_in_background()
            return current
        if current is not None and current.version == self._store.graph_version():
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
                rebuilding = self._rebuilding
            if rebuilding is not None:  # no rebuild outlives the write that started it
                rebuilding.join()

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

    def _rebuild_in_background(self) -> None:
        with self._state:
            if self._rebuilding is not None or not self._writers:
                return
            # Started under the lock: a writer that leaves finds it started, to join.
            self._rebuilding = threading.Thread(
                target=self._rebuild, name="graph-index-build", daemon=True
            )
            self._rebuilding.start()

    def _rebuild(self) -> None:
        try:
            self._build()
        except Exception:  # a reader keeps the last index; the next one tries again
            log.exception("building the graph index of a new version failed")
        finally:
            with self._state:
                self._rebuilding = None
