"""The agent loop as a retrieval preset for ``kg bench multihop`` (offline, no LLM).

The passages gathered over all iterations, ranked by their final evidence score, and the
number of iterations the loop used. No audit file is written: a benchmark makes hundreds of
runs and reads only the ranking. One ``Searcher`` is kept per store, so the graph preset's
in-memory index is built once per benchmark rather than once per question.
"""

from __future__ import annotations

import threading
from typing import Any

from agents.audit import AuditLog, new_run_id
from agents.loop import AgentContainer, RunContext, gather
from graph_store import GraphStore
from retrieval.search import Searcher

_SEARCHERS: dict[int, tuple[GraphStore, Searcher]] = {}
_LOCK = threading.Lock()


def evidence_ranking(
    container: AgentContainer, question: str, k: int = 10
) -> tuple[list[str], int]:
    """Chunk ids best first (every gathered chunk; slice for R@k) and iterations used; ``k``
    chunks are retrieved per sub-query."""

    def ignore(step: str, payload: dict[str, Any]) -> None:
        return None

    audit = AuditLog(None, new_run_id())
    run = RunContext(container, question, container.settings.agent, audit, ignore, k=k)
    gathered = gather(run, _searcher(container))
    return gathered.pool.bundle().ids(), gathered.iterations


def _searcher(container: AgentContainer) -> Searcher:
    with _LOCK:
        cached = _SEARCHERS.get(id(container.store))
        if cached is None or cached[0] is not container.store:
            cached = (container.store, container.searcher())
            _SEARCHERS[id(container.store)] = cached
        return cached[1]
