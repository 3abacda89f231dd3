"""Evidence: retrieval per sub-task, pooled over rounds, scored and tagged from the graph.

Every sub-task's ranked list joins one reciprocal-rank fusion: the question's own list at full
weight, sub-queries at ``subquery_weight``. Tags come from the graph, not from words:
PRIMARY chunks mention an entity the question names (distance 0); STRATEGIC chunks are reached
through relations and mention an entity in the top ``strategic_top_share`` by authority
(PageRank percentile x path strength); everything else is GENERAL. PRIMARY and STRATEGIC can
get a multiplicative boost in the final ranking (``primary_boost``, ``strategic_boost``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.config import AgentSettings
from agents.graph_reach import GraphReach
from agents.models import EvidenceBundle, EvidenceItem, SubTask, Tag
from retrieval.search_types import SearchResult


@dataclass
class _Seen:
    hit: SearchResult
    first_iteration: int
    fused: float = 0.0
    best: dict[str, float] = field(default_factory=dict)


class EvidencePool:
    def __init__(self, reach: GraphReach, settings: AgentSettings) -> None:
        self._reach = reach
        self._settings = settings
        self._seen: dict[str, _Seen] = {}
        self._subtasks: dict[str, set[str]] = {}  # sub-task id -> chunk ids it retrieved

    def add(self, task: SubTask, iteration: int, results: list[SearchResult]) -> list[str]:
        """Fold one sub-task's ranked results in; returns the chunk ids new to the pool."""
        weight = 1.0 if task.origin == "question" else self._settings.subquery_weight
        fresh: list[str] = []
        got = self._subtasks.setdefault(task.id, set())
        for rank, hit in enumerate(results, start=1):
            seen = self._seen.get(hit.chunk_id)
            if seen is None:
                seen = self._seen[hit.chunk_id] = _Seen(hit, iteration)
                fresh.append(hit.chunk_id)
            seen.fused += weight / (self._settings.rrf_k + rank)
            seen.best[task.id] = max(seen.best.get(task.id, 0.0), hit.score)
            got.add(hit.chunk_id)
        return fresh

    def retrieved_by(self, task_id: str) -> set[str]:
        return self._subtasks.get(task_id, set())

    def __len__(self) -> int:
        return len(self._seen)

    def bundle(self) -> EvidenceBundle:
        self._reach.load(self._seen)
        items = [self._item(s) for s in self._seen.values()]
        items.sort(key=lambda i: (-i.score, i.chunk_id))
        return EvidenceBundle(items=items)

    def tag(self, chunk_id: str) -> tuple[Tag, int | None, float, str | None]:
        distance = self._reach.chunk_distance(chunk_id)
        authority, entity = self._reach.chunk_authority(chunk_id)
        if distance == 0:
            return "PRIMARY", distance, authority, entity
        if entity is not None and authority >= 1.0 - self._settings.strategic_top_share:
            return "STRATEGIC", distance, authority, entity
        return "GENERAL", distance, authority, entity

    def _item(self, seen: _Seen) -> EvidenceItem:
        hit = seen.hit
        tag, distance, authority, entity = self.tag(hit.chunk_id)
        boost = {
            "PRIMARY": self._settings.primary_boost,
            "STRATEGIC": self._settings.strategic_boost,
            "GENERAL": 1.0,
        }[tag]
        path = self._reach.path(entity) if tag == "STRATEGIC" and entity else []
        return EvidenceItem(
            chunk_id=hit.chunk_id,
            doc_id=hit.doc_id,
            doc_title=hit.doc_title,
            text=hit.text,
            score=seen.fused * boost,
            tag=tag,
            distance=distance,
            authority=authority,
            authority_entity=self._reach.name(entity) if entity else None,
            subtask_ids=sorted(seen.best),
            first_iteration=seen.first_iteration,
            retrieval=dict(seen.best),
            path=path or list(hit.path),
        )
