"""Chunk embeddings computed on a background thread while extraction and writes go on.

The model's heavy work runs outside the GIL, so rule extraction, resolution and store writes on
the main thread overlap with it. Model calls are serialised by one lock: a tokenizer may not be
used by two threads at once. The feed runs at most ``max_ahead_rows`` vectors ahead of the
consumer (float32), which bounds memory on large runs.

Entity names can instead be embedded on a second copy of the model (``names_beside``), each
model call on its own core: names then no longer wait for a chunk batch, nor chunks for names.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import TypeVar

import numpy as np

from core.errors import EmbeddingError
from retrieval.embedder import Embedder

_T = TypeVar("_T")
_POLL_S = 0.2
DEFAULT_MAX_AHEAD_ROWS = 50_000  # 50k x 384 float32 = 77 MB


class LockedEmbedder:
    """An ``Embedder`` whose model calls are serialised across threads.

    Calls through ``embed`` go before the feed's ``embed_background``: the pipeline waits on
    the former (entity names), while the feed only has to stay ahead of the writes."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._lock = threading.Lock()
        self._turn = threading.Condition(self._lock)
        self._waiting = 0  # foreground calls waiting for the model
        self._busy = False
        # While set, foreground calls run on this second copy of the model, under their own lock.
        self._beside: Embedder | None = None
        self._beside_lock = threading.Lock()
        # Wall seconds the model spent per purpose: what an ingest owes to embedding itself
        # (with a second copy running beside, the purposes overlap and may sum past the wall).
        self.seconds = {"chunks": 0.0, "names": 0.0, "count_tokens": 0.0}

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    @contextlib.contextmanager
    def names_beside(self, replica: Embedder) -> Iterator[None]:
        """Foreground calls (names, token counts) run on ``replica`` until the block ends, at the
        same time as background ones on the first model. ``replica`` must give the same vectors
        (``Replicable.replica``) and share nothing that is unsafe for two threads."""
        self._beside = replica
        try:
            yield
        finally:
            self._beside = None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._call(lambda m: m.embed(texts), foreground=True, purpose="names")

    def embed_background(self, texts: Sequence[str]) -> list[list[float]]:
        return self._call(lambda m: m.embed(texts), foreground=False, purpose="chunks")

    def count_tokens(self, text: str) -> int:
        return self._call(lambda m: m.count_tokens(text), foreground=True, purpose="count_tokens")

    def _call(self, work: Callable[[Embedder], _T], foreground: bool, purpose: str) -> _T:
        beside = self._beside
        if foreground and beside is not None:
            with self._beside_lock:
                started = time.perf_counter()
                try:
                    return work(beside)
                finally:
                    self._spent(purpose, time.perf_counter() - started)
        with self._turn:
            if foreground:
                self._waiting += 1
            try:
                while self._busy or (not foreground and self._waiting):
                    self._turn.wait()
            finally:
                if foreground:
                    self._waiting -= 1
            self._busy = True
        started = time.perf_counter()
        try:
            return work(self._inner)
        finally:
            with self._turn:
                self.seconds[purpose] += time.perf_counter() - started
                self._busy = False
                self._turn.notify_all()

    def _spent(self, purpose: str, seconds: float) -> None:
        with self._turn:
            self.seconds[purpose] += seconds


class EmbeddingFeed:
    """Embeds ``batches`` of texts in order on a worker thread; ``next()`` returns them in order."""

    def __init__(
        self,
        embedder: LockedEmbedder | Embedder,
        batches: Sequence[Sequence[str]],
        max_ahead_rows: int = DEFAULT_MAX_AHEAD_ROWS,
    ) -> None:
        self._embedder = embedder
        self._batches = batches
        rows = max(1, max((len(b) for b in batches), default=1))
        self._queue: queue.Queue[np.ndarray | BaseException] = queue.Queue(
            maxsize=max(1, max_ahead_rows // rows)
        )
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kg-embed-feed", daemon=True)

    def __enter__(self) -> EmbeddingFeed:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        for texts in self._batches:
            if self._stop.is_set():
                return
            try:
                embed = (
                    self._embedder.embed_background
                    if isinstance(self._embedder, LockedEmbedder)
                    else self._embedder.embed
                )
                item: np.ndarray | BaseException = np.asarray(
                    embed(list(texts)) if texts else [], dtype=np.float32
                )
            except BaseException as exc:  # handed to the consumer, raised there
                item = exc
            while not self._stop.is_set():
                try:
                    self._queue.put(item, timeout=_POLL_S)
                    break
                except queue.Full:
                    continue
            if isinstance(item, BaseException):
                return

    def next(self) -> list[list[float]]:
        """The next batch's vectors; re-raises the worker's error."""
        while True:
            try:
                item = self._queue.get(timeout=_POLL_S)
                break
            except queue.Empty:
                if not self._thread.is_alive() and self._queue.empty():
                    raise EmbeddingError("the embedding worker ended early") from None
        if isinstance(item, BaseException):
            raise item
        rows: list[list[float]] = item.tolist()
        return rows
