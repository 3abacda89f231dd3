"""Independent reads of one question, asked at once.

On a read model whose answers come over the network (Neo4j: a round trip each, most of the
time spent waiting), a search's first reads do not depend on each other: the dense and the
full-text candidates, the alias, full-text and nearest-name lookups of entity linking. Asked
one after the other they cost their sum; asked at once, about the slowest. The in-memory model
answers them with numpy and Python under the GIL, so they gain little there and lose the
hand-over to a thread (tens of microseconds).

Tasks never wait for other tasks (a caller submits, then waits on its own thread), so a
shared pool cannot deadlock however many searches run at once; a pool with all its threads
busy queues the rest, and a caller with ``parallel_reads`` off runs them in place.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

# Threads shared by every search of the process: a search asks at most four reads at once,
# and the API serves a handful of searches at a time on two cores.
POOL_THREADS = 8

_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def _shared_pool() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(POOL_THREADS, thread_name_prefix="kg-read")
        return _pool


class Reads:
    """Starts reads on the shared pool (``enabled``) or runs each where it is asked."""

    def __init__(self, enabled: bool) -> None:
        self._enabled = enabled

    def start(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        if self._enabled:
            return _shared_pool().submit(fn, *args, **kwargs)
        done: Future[T] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered by result(), as from the pool
            done.set_exception(exc)
        return done
