"""Evidence: retrieval per sub-task, pooled over rounds, scored and tagged from the graph.

Every sub-task's ranked list joins one reciprocal-rank fusion: the question's own list at full
weight, sub-queries at ``subquery_weight``. Tags come from the graph, not from words:
PRIMARY chunks mention an entity the question names (distance 0); STRATEGIC chunks are reached
through relations and mention an entity in the top ``strategic_top_share`` by authority
(PageRank percentile x path strength); everything else is GENERAL. PRIMARY and STRATEGIC can
get a multiplicative boost in the final ranking (``primary_boost``, ``strategic_boost``).

Each item carries its document's date, type and subject (``agents.docmeta``). A question about
one organisation is answered from that organisation's documents first: the best chunks of the
documents whose title names an entity the question names move ahead of chunks that do not
mention the question's entities at all, however they were reached (a co-occurrence edge to
another organisation, shared words); ``subject_first_chunks`` of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.config import AgentSettings
from agents.docmeta import DocIndex
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
        """The best chunks of the question's subject's own documents ahead of chunks of the
        same kind of document about another subject ("ABC Annual Plan" for a question about
        XYZ, whose own "XYZ Annual Plan" is in the pool) that do not mention the question's
        entities: such a parallel document answers the question for someone else."""
        n = self._settings.subject_first_chunks
        docs = self.docs
        if n <= 0 or docs is None or not self._subject_ids:
            return items
        own = [
            i
            for i in items
            if i.tag == "PRIMARY" and docs.of_chunk(i.chunk_id).subject_ids & self._subject_ids
        ][:n]
        kinds = {k for i in own if (k := docs.of_chunk(i.chunk_id).kind)}
        if not own or not kinds:
            return items
        last = items.index(own[-1])

        def parallel(item: EvidenceItem) -> bool:
            meta = docs.of_chunk(item.chunk_id)
            return (
                item.tag == "GENERAL"
                and meta.kind in kinds
                and not meta.subject_ids & self._subject_ids
            )

        moved = [i for i in items[:last] if parallel(i)]
        if not moved:
            return items
        head = [i for i in items[: last + 1] if i not in moved]
        return head + moved + items[last + 1 :]

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
