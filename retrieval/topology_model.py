"""A read model whose walk and path search run in the process over the graph's topology
(``retrieval.topology``), every other read answered by the store's own read model.

The topology is read once per graph version, in the background: a question never waits for
it. While it is missing or older than the graph (the first questions after a start, and
after each write until the rebuild lands), the walk and the paths are asked of the inner
model, so an answer always reflects the graph of its moment. A rebuild starts at most once
per ``rebuild_gap`` times the last build's duration after that build ended: under an ingest
that commits every second the process does not spend its cores re-reading the graph.
``prepare()`` builds at once and waits (a benchmark's warm-up); with ``background=False``
every call that finds the topology stale does (the contract tests).
"""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future

from core.errors import KgError
from core.memory import release_free_heap
from graph_store.read_model import (
    AliasMatch,
    Candidates,
    ChunkDetail,
    EntityMatch,
    GraphReadModel,
    PathHop,
    ReachKeep,
    ScoredChunk,
)
from graph_store.types import TopologyData
from retrieval.parallel import Reads
from retrieval.topology import Topology

log = logging.getLogger(__name__)


class TopologyReadModel:
    def __init__(
        self,
        inner: GraphReadModel,
        load: Callable[[], TopologyData],
        walk_tolerance: float = 1e-6,
        walk_prune: float = 0.0,
        rebuild_gap: float = 4.0,
        background: bool = True,
    ) -> None:
        self._inner = inner
        self._load = load
        self._walk = (walk_tolerance, walk_prune)
        self._gap = rebuild_gap
        # False: a missing or older topology is built before the call goes on (the contract
        # tests run every walk and path search of a fresh graph on it).
        self._background = background
        self._topology: Topology | None = None
        self._lock = threading.Lock()  # guards the two fields below
        self._building = False
        self._not_before = 0.0
        self._last_build_s = 0.0
        self._build_lock = threading.Lock()  # one build at a time
        self.builds = 0
        # A pinned copy's topology (None inside: the inner model's walk), fixed for a search;
        # read while the search's first reads run (``pinned``).
        self._pinned: Future[Topology | None] | None = None

    @property
    def inner(self) -> GraphReadModel:
        return self._inner

    def prepare(self) -> None:
        """Build the topology of the current graph version now, unless it is built."""
        self._inner.prepare()
        if self._current(schedule=False) is None:
            self._build()

    def pinned(self, reads: Reads | None = None) -> TopologyReadModel:
        """This model fixed to the topology of now (or to the inner model's walk and paths
        when there is none current) for the calls of one search: one version read, not one a
        call, and no search that walks one version and finds paths in the next. With
        ``reads`` the version is read there, and the first call that needs the topology
        waits for it: a search's candidates and linking, which do not, go on meanwhile (a
        question whose vector is cached waited a round trip for it)."""
        if self._pinned is not None:
            return self
        twin = copy.copy(self)
        twin._pinned = (reads or Reads(False)).start(self._current)
        return twin

    def topology(self) -> Topology | None:
        """The topology of the current graph version, if built (no build started)."""
        return self._current(schedule=False)

    def _current(self, schedule: bool = True) -> Topology | None:
        if self._pinned is not None:
            return self._pinned.result()
        topology = self._topology
        if topology is not None and topology.version == self._inner.version():
            return topology
        if not schedule:
            return None
        if not self._background:
            self._build()
            return self._topology
        self._schedule()
        return None

    def _schedule(self) -> None:
        with self._lock:
            if self._building or time.monotonic() < self._not_before:
                return
            self._building = True
        threading.Thread(target=self._build_in_background, name="kg-topology", daemon=True).start()

    def _build_in_background(self) -> None:
        start = time.monotonic()
        try:
            self._build()
        except KgError as exc:  # the walk stays on the inner model; tried again later
            log.warning("reading the graph's topology failed: %s", exc)
            # A failed read waits its gap too, measured on the longer of this attempt and
            # the last build: a server that refuses at once is not asked at every question.
            with self._lock:
                spent = max(time.monotonic() - start, self._last_build_s)
                self._not_before = time.monotonic() + self._gap * spent
        finally:
            with self._lock:
                self._building = False

    def _build(self) -> None:
        with self._build_lock:
            if self._current(schedule=False) is not None:
                return
            start = time.monotonic()
            topology = Topology(self._load())
            self._topology = topology
            self.builds += 1
            release_free_heap()  # the build's temporaries (core/memory.py)
            took = time.monotonic() - start
            with self._lock:
                self._last_build_s = took
                self._not_before = time.monotonic() + self._gap * took
            log.info(
                "graph topology of version %s: %d nodes, %d walk edges, read in %.1f s",
                topology.version,
                topology.size,
                topology.adjacency.nnz // 2,
                took,
            )

    # --- in the process while the topology is current --------------------------------
    def personalized_pagerank(
        self, seeds: Mapping[str, float], k: int, damping: float = 0.85
    ) -> dict[str, float]:
        topology = self._current()
        if topology is None:
            return self._inner.personalized_pagerank(seeds, k, damping)
        tol, prune = self._walk
        return topology.personalized_top(seeds, k, damping, tol=tol, prune=prune)

    def relation_paths(
        self,
        sources: Mapping[str, float],
        max_hops: int,
        hop_decay: float = 0.8,
        backward: float = 0.5,
        keep: ReachKeep | None = None,
    ) -> dict[str, PathHop]:
        topology = self._current()
        if topology is None:
            return self._inner.relation_paths(sources, max_hops, hop_decay, backward, keep)
        reach = topology.relation_reach(sources, max_hops, hop_decay, backward, keep)
        if topology.has_names() or not reach:
            return reach
        names = self._inner.entity_names(sorted(reach))
        return {e: hop._replace(name=names.get(e, "")) for e, hop in reach.items()}

    # --- from a pinned model's topology, else the inner model --------------------------
    # Only a pinned model answers these here: asking whether the topology is current costs a
    # round trip, as much as the inner model's answer.
    def _held(self) -> Topology | None:
        return self._pinned.result() if self._pinned is not None else None

    def entity_names(self, entity_ids: Sequence[str]) -> dict[str, str]:
        topology = self._held()
        if topology is None or not topology.has_names():
            return self._inner.entity_names(entity_ids)
        return topology.entity_names(entity_ids)

    def chunk_entities(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        topology = self._held()
        if topology is None:
            return self._inner.chunk_entities(chunk_ids)
        return topology.chunk_entities(chunk_ids)

    def entity_chunks(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        topology = self._held()
        if topology is None:
            return self._inner.entity_chunks(entity_ids)
        return topology.entity_chunks(entity_ids)

    # --- everything else: the inner model -----------------------------------------------
    def version(self) -> str:
        return self._inner.version()

    def dense_chunks(self, vector: Sequence[float], k: int) -> list[ScoredChunk]:
        return self._inner.dense_chunks(vector, k)

    def lexical_chunks(self, question: str, k: int) -> list[ScoredChunk]:
        return self._inner.lexical_chunks(question, k)

    def dense_candidates(self, vector: Sequence[float], k: int) -> Candidates:
        return self._inner.dense_candidates(vector, k)

    def lexical_candidates(self, question: str, vector: Sequence[float], k: int) -> Candidates:
        return self._inner.lexical_candidates(question, vector, k)

    def alias_matches(self, question: str) -> list[AliasMatch]:
        return self._inner.alias_matches(question)

    def nearest_entities(
        self, vector: Sequence[float], k: int, min_score: float | None = None
    ) -> list[EntityMatch]:
        return self._inner.nearest_entities(vector, k, min_score)

    def fulltext_entities(self, question: str, k: int) -> list[EntityMatch]:
        return self._inner.fulltext_entities(question, k)

    def refresh_authority(self) -> bool:
        return self._inner.refresh_authority()

    def authority_percentiles(self, entity_ids: Sequence[str]) -> dict[str, float]:
        return self._inner.authority_percentiles(entity_ids)

    def entity_similarities(
        self, entity_ids: Sequence[str], vector: Sequence[float]
    ) -> dict[str, float]:
        return self._inner.entity_similarities(entity_ids, vector)

    def chunk_details(
        self, chunk_ids: Sequence[str], vector: Sequence[float] | None = None
    ) -> dict[str, ChunkDetail]:
        return self._inner.chunk_details(chunk_ids, vector)

    def chunk_vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        return self._inner.chunk_vectors(chunk_ids)

    def chunk_entity_similarities(
        self, chunk_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> dict[str, list[float]]:
        return self._inner.chunk_entity_similarities(chunk_ids, entity_ids)

    def subject_chunks(
        self, entity_ids: Sequence[str], titled: bool = False
    ) -> dict[str, list[str]]:
        return self._inner.subject_chunks(entity_ids, titled)
