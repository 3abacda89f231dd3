"""Evidence: retrieval per sub-task, pooled over rounds, scored and tagged from the graph.

Every sub-task's ranked list joins one reciprocal-rank fusion: the question's own list at full
weight, sub-queries at ``subquery_weight``. Tags come from the graph, not from words:
PRIMARY chunks mention an entity the question names (distance 0); STRATEGIC chunks are reached
through relations and mention an entity in the top ``strategic_top_share`` by authority
(PageRank percentile x path strength); everything else is GENERAL. PRIMARY and STRATEGIC can
get a multiplicative boost in the final ranking (``primary_boost``, ``strategic_boost``).

Each item carries its document's date, type and subject (``agents.docmeta``). A question about
one organisation is answered from that organisation's documents first: a chunk of a parallel
document (one of the same kind about another subject, "ABC Annual Plan" for a question about
XYZ) goes behind XYZ's own document of that kind when the pool holds it (``subject_first``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from agents.config import AgentSettings
from agents.docmeta import DocIndex, DocMeta
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
    def __init__(
        self,
        reach: GraphReach,
        settings: AgentSettings,
        docs: DocIndex | None = None,
        subject_ids: frozenset[str] = frozenset(),
    ) -> None:
        self._reach = reach
        self._settings = settings
        self.docs = docs
        self._subject_ids = subject_ids  # the entities the question names
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
        if self.docs is not None:
            self.docs.load(self._seen)
        items = [self._item(s) for s in self._seen.values()]
        items.sort(key=lambda i: (-i.score, i.chunk_id))
        return EvidenceBundle(items=self._subject_first(items))

    def _subject_first(self, items: list[EvidenceItem]) -> list[EvidenceItem]:
        docs = self.docs
        if docs is None:
            return items
        return subject_first(
            items, docs.of_chunk, self._subject_ids, self._settings.subject_first_chunks
        )

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
        meta = self.docs.of_chunk(hit.chunk_id) if self.docs is not None else None
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
            doc_date=meta.date if meta else "",
            doc_type=meta.doc_type if meta else "",
            subject=meta.subject if meta else "",
            tokens=hit.tokens,
        )


def subject_first(
    items: list[EvidenceItem],
    meta: Callable[[str], DocMeta],
    subject_ids: frozenset[str],
    per_kind: int,
) -> list[EvidenceItem]:
    """``items`` with each parallel document moved behind the subject's own document of its
    kind. For a question about XYZ whose pool holds "XYZ Annual Plan", a chunk of "ABC Annual
    Plan" answers the question for someone else: it goes right after the last of XYZ's own
    annual-plan chunks (the first ``per_kind`` of them, by the pool's order), however it was
    reached (shared words, a co-occurrence edge, a relation to a high-authority entity that
    makes it STRATEGIC). Chunks that mention the question's entities (PRIMARY) stay where they
    are, and so does everything when the pool holds none of the subject's own documents of
    that kind."""
    if per_kind <= 0 or not subject_ids:
        return items
    anchors: dict[str, str] = {}  # kind -> the last own chunk of that kind kept ahead
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        m = meta(item.chunk_id)
        own = item.tag == "PRIMARY" and bool(m.subject_ids & subject_ids)
        if own and m.kind and counts[m.kind] < per_kind:
            counts[m.kind] += 1
            anchors[m.kind] = item.chunk_id
    behind: dict[str, list[EvidenceItem]] = defaultdict(list)
    waiting: set[str] = set(anchors.values())  # anchors not yet passed
    moved: set[str] = set()
    for item in items:
        waiting.discard(item.chunk_id)
        m = meta(item.chunk_id)
        anchor = anchors.get(m.kind) if m.kind else None
        parallel = item.tag != "PRIMARY" and not m.subject_ids & subject_ids
        if anchor in waiting and parallel:
            behind[anchor].append(item)
            moved.add(item.chunk_id)
    out: list[EvidenceItem] = []
    for item in items:
        if item.chunk_id not in moved:
            out.append(item)
            out.extend(behind.get(item.chunk_id, []))
    return out
