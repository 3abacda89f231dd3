"""Chunk embeddings computed on a background thread while extraction and writes go on.

The model's heavy work runs outside the GIL, so rule extraction, resolution and store writes on
the main thread overlap with it. Model calls are serialised by one lock: a tokenizer may not be
used by two threads at once. The feed runs at most ``max_ahead_rows`` vectors ahead of the
consumer (float32), which bounds memory on large runs.

Entity names can instead be embedded on a second copy of the model (``names_beside``), each
model call on its own core: names then no longer wait for a chunk batch, nor chunks for names.
While that copy is there, the consumer also runs the units of the batch it waits for that the
worker has not started: on MuSiQue's first 400 passages the ingest went from 22.4-22.8 to
25.1-26.3 passages/s, every vector bit for bit the same (docs/benchmarks.md, "Embedding
precision").
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TypeVar

import numpy as np

from core.errors import EmbeddingError
from retrieval.embedder import BulkEmbedder, Embedder, ManyCounter

_T = TypeVar("_T")
_POLL_S = 0.2
DEFAULT_MAX_AHEAD_ROWS = 50_000  # 50k x 384 float32 = 77 MB
# Texts a unit of the feed embeds in one model call: the embedders' own batch size.
DEFAULT_UNIT_ROWS = 64


def count_many(model: Embedder | LockedEmbedder, texts: Sequence[str]) -> list[int]:
    """Each text's token count: in one call where the model has one (``ManyCounter``)."""
    if isinstance(model, ManyCounter):
        return model.count_tokens_many(texts)
    return [model.count_tokens(t) for t in texts]


def bulk_path(model: Embedder) -> Callable[[Sequence[str]], list[list[float]]]:
    """The model's path for an ingest's texts: its bulk one where it has one."""
    return model.embed_bulk if isinstance(model, BulkEmbedder) else model.embed


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
        return self._call(lambda m: bulk_path(m)(texts), foreground=True, purpose="names")

    @property
    def has_beside(self) -> bool:
        """Whether foreground calls now run on a second copy of the model."""
        return self._beside is not None

    def beside(self, texts: Sequence[str]) -> list[list[float]]:
        """Chunk texts embedded as a foreground call: on the second copy while there is one."""
        return self._call(lambda m: bulk_path(m)(texts), foreground=True, purpose="chunks")

    def embed_background(self, texts: Sequence[str]) -> list[list[float]]:
        return self._call(lambda m: bulk_path(m)(texts), foreground=False, purpose="chunks")

    def count_tokens(self, text: str) -> int:
        return self._call(lambda m: m.count_tokens(text), foreground=True, purpose="count_tokens")

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return self._call(lambda m: count_many(m, texts), foreground=True, purpose="count_tokens")

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


@dataclass(frozen=True)
class _Unit:
    """One model call of the feed: rows of one batch, of about equal token count."""

    batch: int
    rows: np.ndarray  # positions within the batch


class EmbeddingFeed:
    """Embeds ``batches`` of texts in order on a worker thread; ``next()`` returns them in order.

    A batch is embedded in units of ``unit_rows`` texts of about equal token count (each unit
    one model call, ordered by the embedder's own count, so little of a call is padding). The
    units are fixed by the texts alone, never by who runs them, so a text's vector does not
    depend on timing. When the ``LockedEmbedder`` has a second model copy beside
    (``names_beside``), a consumer that would wait for its batch runs that batch's units no one
    has started on the copy: the ingest's main thread, idle until the chunks' vectors come,
    works on the second core instead of waiting."""

    def __init__(
        self,
        embedder: LockedEmbedder | Embedder,
        batches: Sequence[Sequence[str]],
        max_ahead_rows: int = DEFAULT_MAX_AHEAD_ROWS,
        unit_rows: int = DEFAULT_UNIT_ROWS,
    ) -> None:
        self._embedder = embedder
        self._batches = [list(b) for b in batches]
        self._max_ahead = max(1, max_ahead_rows)
        self._unit_rows = max(1, unit_rows)
        self._cond = threading.Condition()
        self._units: list[_Unit] | None = None  # planned by the worker first
        self._of_batch: list[range] = []  # unit indices of each batch
        self._claimed = 0  # units handed out, in order
        self._done: dict[int, np.ndarray | BaseException] = {}
        self._ahead = 0  # rows embedded and not yet taken by ``next``
        self._next_batch = 0
        self._failure: BaseException | None = None
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
        with self._cond:
            self._cond.notify_all()
        self._thread.join()

    def _plan(self) -> tuple[list[_Unit], list[range]]:
        units: list[_Unit] = []
        of_batch: list[range] = []
        for index, texts in enumerate(self._batches):
            sizes = np.asarray(count_many(self._embedder, texts), dtype=np.int64)
            order = np.argsort(sizes, kind="stable")
            first = len(units)
            for start in range(0, len(order), self._unit_rows):
                units.append(_Unit(index, order[start : start + self._unit_rows]))
            of_batch.append(range(first, len(units)))
        return units, of_batch

    def _run(self) -> None:
        try:
            units, of_batch = self._plan()
        except BaseException as exc:  # handed to the consumer, raised there
            with self._cond:
                self._failure = exc
                self._cond.notify_all()
            return
        with self._cond:
            self._units, self._of_batch = units, of_batch
            self._cond.notify_all()
        while True:
            with self._cond:
                while not self._stop.is_set() and self._too_far_ahead(units):
                    self._cond.wait(_POLL_S)
                if self._stop.is_set() or self._claimed >= len(units):
                    return
                unit = self._claimed
                self._claimed += 1
            if isinstance(self._done_with(unit, background=True), BaseException):
                return

    def _too_far_ahead(self, units: list[_Unit]) -> bool:
        """Whether the worker must wait before its next unit: enough rows are waiting for the
        consumer, and the unit is for a later batch than the one the consumer needs next."""
        return (
            self._claimed < len(units)
            and units[self._claimed].batch > self._next_batch
            and self._ahead >= self._max_ahead
        )

    def _done_with(self, unit: int, background: bool) -> np.ndarray | BaseException:
        assert self._units is not None
        part = self._units[unit]
        texts = [self._batches[part.batch][i] for i in part.rows]
        item: np.ndarray | BaseException
        try:
            if isinstance(self._embedder, LockedEmbedder):
                embed = self._embedder.embed_background if background else self._embedder.beside
                item = np.asarray(embed(texts), dtype=np.float32)
            else:
                item = np.asarray(self._embedder.embed(texts), dtype=np.float32)
        except BaseException as exc:  # handed to the consumer, raised there
            item = exc
        with self._cond:
            self._done[unit] = item
            self._ahead += len(part.rows)
            self._cond.notify_all()
        return item

    def _helping(self) -> bool:
        return isinstance(self._embedder, LockedEmbedder) and self._embedder.has_beside

    def next(self) -> list[list[float]]:
        """The next batch's vectors; re-raises the worker's error."""
        with self._cond:
            while self._units is None:
                if self._failure is not None:
                    raise self._failure
                if not self._thread.is_alive():
                    raise EmbeddingError("the embedding worker ended early")
                self._cond.wait(_POLL_S)
        batch = self._next_batch
        units = self._of_batch[batch]
        while True:
            with self._cond:
                if all(u in self._done for u in units):
                    break
                alive = self._thread.is_alive()
                if self._claimed < units.stop and (self._helping() or not alive):
                    unit = self._claimed
                    self._claimed += 1
                elif not alive and not self._stop.is_set():
                    raise EmbeddingError("the embedding worker ended early")
                else:
                    self._cond.wait(_POLL_S)
                    continue
            self._done_with(unit, background=False)
        return self._take(batch, units)

    def _take(self, batch: int, units: range) -> list[list[float]]:
        assert self._units is not None
        out = np.empty((len(self._batches[batch]), self._embedder.dimension), dtype=np.float32)
        with self._cond:
            items = [self._done.pop(u) for u in units]
            self._ahead -= sum(len(self._units[u].rows) for u in units)
            self._next_batch += 1
            self._cond.notify_all()
        for u, item in zip(units, items, strict=True):
            if isinstance(item, BaseException):
                raise item
            out[self._units[u].rows] = item
        rows: list[list[float]] = out.tolist()
        return rows
