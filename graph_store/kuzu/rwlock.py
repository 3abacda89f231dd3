"""A readers–writer lock for the embedded store.

Kùzu runs read transactions beside one write transaction, but creating an index or
checkpointing a commit waits for every active transaction to leave and gives up after a
timeout, leaving half-built index tables behind. So readers share this lock, writers take it
alone, and a waiting writer stops new readers from starving it. The writer may re-enter, and
so may a reader (one that holds the lock across several queries): a nested read must not wait
for a writer that waits for the outer one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class ReadWriteLock:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writer: int | None = None
        self._depth = 0
        self._waiting_writers = 0
        self._local = threading.local()  # this thread's read depth

    @contextmanager
    def read(self) -> Iterator[None]:
        me = threading.get_ident()
        depth = getattr(self._local, "depth", 0)
        if self._writer == me or depth:  # the writer reads through its own transaction
            self._local.depth = depth + 1
            try:
                yield
            finally:
                self._local.depth = depth
            return
        with self._cond:
            while self._writer is not None or self._waiting_writers:
                self._cond.wait()
            self._readers += 1
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0
            with self._cond:
                self._readers -= 1
                if self._readers == 0:
                    self._cond.notify_all()

    @contextmanager
    def write(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._cond:
            if self._writer == me:
                self._depth += 1
            else:
                self._waiting_writers += 1
                try:
                    while self._writer is not None or self._readers:
                        self._cond.wait()
                finally:
                    self._waiting_writers -= 1
                self._writer, self._depth = me, 1
        try:
            yield
        finally:
            with self._cond:
                self._depth -= 1
                if self._depth == 0:
                    self._writer = None
                    self._cond.notify_all()
