"""A readers–writer lock for the embedded store, with a writer's two holds.

Kùzu runs read transactions beside one write transaction, each reader on the snapshot of the
last commit, but creating or dropping an index and checkpointing wait for every active
transaction to leave and give up after a timeout (leaving half-built index tables behind). So:

- ``read()`` is shared by readers;
- ``write()`` is the writer's hold for a transaction's statements: one writer at a time, and
  readers go on beside it (they read the last committed version);
- ``exclusive()`` is the hold for a checkpoint or an index change: no reader at all. A writer
  takes it inside its ``write()`` (an upgrade: only one thread can hold ``write()``, so two
  upgrades never wait for each other), or on its own.

A thread waiting for ``exclusive()`` stops new readers from starving it. The writer may
re-enter, and so may a reader (one that holds a read transaction across several queries): a
nested read must not wait for an exclusive hold that waits for the outer one; the writer's own
reads go through.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class ReadWriteLock:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writer: int | None = None  # the thread holding write() (or exclusive())
        self._depth = 0
        self._exclusive = 0  # exclusive() depth of the writer thread
        self._waiting_exclusive = 0
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
            while self._exclusive or self._waiting_exclusive:
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
        """One writer at a time; readers go on beside it."""
        me = threading.get_ident()
        with self._cond:
            if self._writer == me:
                self._depth += 1
            else:
                while self._writer is not None:
                    self._cond.wait()
                self._writer, self._depth = me, 1
        try:
            yield
        finally:
            self._leave_write()

    @contextmanager
    def try_write(self) -> Iterator[bool]:
        """``write()`` if no other thread holds it and this one holds no read (an exclusive
        hold inside would wait for that read); otherwise nothing, at once: yields whether
        it holds."""
        me = threading.get_ident()
        with self._cond:
            free = self._writer in (None, me) and not getattr(self._local, "depth", 0)
            if free:
                self._writer = me
                self._depth += 1
        if not free:
            yield False
            return
        try:
            yield True
        finally:
            self._leave_write()

    def _leave_write(self) -> None:
        """Undo one ``write()`` / ``try_write()`` hold; the last one frees the writer slot."""
        with self._cond:
            self._depth -= 1
            if self._depth == 0:
                self._writer = None
                self._cond.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """The writer's hold with no reader beside it (for a checkpoint or an index change)."""
        with self.write():
            with self._cond:
                if not self._exclusive:
                    self._waiting_exclusive += 1
                    try:
                        while self._readers:
                            self._cond.wait()
                    finally:
                        self._waiting_exclusive -= 1
                self._exclusive += 1
            try:
                yield
            finally:
                with self._cond:
                    self._exclusive -= 1
                    if not self._exclusive:
                        self._cond.notify_all()
