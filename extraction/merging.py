"""Merging new entities whose names are alike, with each other and with stored entities.

Input: the run's new canonical names with their name embeddings. Pairs above the lowest
embedding threshold (and acronyms spelling exactly one long form) are judged by
extraction/similarity.py; confident pairs are unioned, and each union is represented by its most
mentioned name, then compared with its nearest stored entities. Doubtful pairs become
``SAME_AS`` edges. Everything is ordered by name, so the result is the same in every process.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from core.names import entity_id, normalize_name
from extraction.config import ResolutionSettings
from extraction.name_pairs import similar_name_pairs
from extraction.similarity import (
    Named,
    Verdict,
    acronym_pairs,
    judge,
    unit_rows,
)
from graph_schema.models import SameAs
from graph_store.types import EntityHit


class NearestEntities(Protocol):
    def vector_search_entities(self, embedding: Sequence[float], k: int) -> list[EntityHit]: ...


@dataclass
class MergeResult:
    entity_of: dict[str, str] = field(default_factory=dict)  # name key -> entity id
    merged: dict[str, float] = field(default_factory=dict)  # key merged into another -> score
    vectors: dict[str, tuple[float, ...]] = field(default_factory=dict)  # new entity id -> vector
    same_as: list[SameAs] = field(default_factory=list)


class SameAsEdges:
    """Undirected SAME_AS pairs, the best score kept per pair, indexed by entity: each
    document of an ingest call asks for the pairs touching its entities, and scanning every
    pair of the call for every document grew with the square of the call (30,000 passages in
    one call: tens of thousands of pairs read for each of 30,000 documents)."""

    def __init__(self) -> None:
        self._edges: dict[tuple[str, str], SameAs] = {}
        self._of: dict[str, list[tuple[str, str]]] = {}
        self._rank: dict[tuple[str, str], int] = {}  # pair -> order of first addition

    def add(self, a: str, b: str, score: float, method: str) -> None:
        if a == b:
            return
        pair = (a, b) if a < b else (b, a)
        old = self._edges.get(pair)
        if old is None:
            self._rank[pair] = len(self._rank)
            for end in pair:
                self._of.setdefault(end, []).append(pair)
        if old is None or score > old.score:
            self._edges[pair] = SameAs(
                source_id=pair[0], target_id=pair[1], score=score, method=method
            )

    def items(self) -> list[tuple[tuple[str, str], SameAs]]:
        return list(self._edges.items())

    def touching(self, ids: Iterable[str]) -> list[tuple[tuple[str, str], SameAs]]:
        """The pairs with an end in ``ids``, in the order they were first added."""
        found = {pair for i in ids for pair in self._of.get(i, ())}
        return [(p, self._edges[p]) for p in sorted(found, key=self._rank.__getitem__)]

    def __len__(self) -> int:
        return len(self._edges)


def merge_similar(
    items: Sequence[Named],
    vectors: Sequence[Sequence[float]],
    mentions: Mapping[str, int],
    cfg: ResolutionSettings,
    store: NearestEntities | None,
) -> MergeResult:
    out = MergeResult()
    if not items:
        return out
    matrix = unit_rows(vectors, len(vectors[0]))
    groups = _Groups(items)
    edges = SameAsEdges()
    scores = _union_similar(items, matrix, cfg, groups, edges)
    search = store is not None and cfg.store_candidates > 0
    for r, group in groups.members():
        # the most mentioned name represents the union; ties by length, then name order
        best = min(group, key=lambda i: (-mentions.get(items[i].key, 0), -len(items[i].key), i))
        target, score = groups.stored.get(r, ""), 0.0
        if target:
            best = r
        elif search and store is not None:
            target, score, search = _nearest_stored(items[best], matrix[best], store, cfg, edges)
        eid = target or entity_id(items[best].key)
        if not target:
            out.vectors[eid] = tuple(float(x) for x in vectors[best])
        for i in group:
            out.entity_of[items[i].key] = eid
            if items[i].stored:
                continue
            if i != best:
                out.merged[items[i].key] = scores.get(i, 1.0)
            elif target:
                out.merged[items[i].key] = score
    out.same_as = _repointed(edges, out.entity_of)
    return out


class _Groups:
    """Union-find over the names; a stored entity is always its group's root."""

    def __init__(self, items: Sequence[Named]) -> None:
        self._items = items
        self.parent = list(range(len(items)))
        self.stored = {i: items[i].stored for i in range(len(items)) if items[i].stored}

    def root(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def ident(self, i: int) -> str:
        return self._items[i].stored or entity_id(self._items[i].key)

    def join(self, i: int, j: int) -> bool:
        """Merge the groups of i and j, unless both hold different stored entities (the
        store keeps both: they are linked instead). True when merged."""
        ri, rj = self.root(i), self.root(j)
        stored = self.stored
        if ri in stored and rj in stored and stored[ri] != stored[rj]:
            return False
        if rj in stored:
            ri, rj = rj, ri
        self.parent[rj] = ri
        return True

    def members(self) -> list[tuple[int, list[int]]]:
        members: dict[int, list[int]] = defaultdict(list)
        for i in range(len(self.parent)):
            members[self.root(i)].append(i)
        return sorted(members.items(), key=lambda m: m[1])


def _union_similar(
    items: Sequence[Named],
    matrix: np.ndarray,
    cfg: ResolutionSettings,
    groups: _Groups,
    edges: SameAsEdges,
) -> dict[int, float]:
    """Merge the pairs judged the same; link the near ones and acronyms with SAME_AS edges.
    Returns the best merge score of each merged name."""
    scores: dict[int, float] = {}
    low = min(cfg.merge_embedding_similarity, cfg.same_as_embedding_similarity)
    for i, j, cosine in similar_name_pairs([item.key for item in items], matrix, low):
        decision = judge(items[i], items[j], cosine, cfg)
        if decision is None:
            continue
        if decision.verdict is Verdict.MERGE and groups.join(i, j):
            for k in (i, j):
                scores[k] = max(scores.get(k, 0.0), decision.score)
        elif groups.ident(i) != groups.ident(j):
            edges.add(groups.ident(i), groups.ident(j), decision.score, decision.method)
    for i, j in acronym_pairs(items):
        edges.add(groups.ident(i), groups.ident(j), cfg.acronym_same_as_score, "acronym")
    return scores


def _repointed(edges: SameAsEdges, entity_of: Mapping[str, str]) -> list[SameAs]:
    """Edges whose ends were merged into one entity, or into stored ones, re-pointed."""
    remap = {entity_id(k): eid for k, eid in entity_of.items()}
    final = SameAsEdges()
    for _, e in edges.items():
        final.add(
            remap.get(e.source_id, e.source_id),
            remap.get(e.target_id, e.target_id),
            e.score,
            e.method,
        )
    return [e for _, e in final.items()]


def _nearest_stored(
    item: Named,
    vector: Sequence[float],
    store: NearestEntities,
    cfg: ResolutionSettings,
    edges: SameAsEdges,
) -> tuple[str, float, bool]:
    """(stored entity this new one is, merge score, whether to keep searching); SAME_AS edges to
    doubtful neighbours are noted on the way. No hits at all means the graph has no entities
    yet, so the rest of the run skips the search."""
    hits = store.vector_search_entities([float(x) for x in vector], cfg.store_candidates)
    for hit in sorted(hits, key=lambda h: (-h.score, h.entity_id)):
        other = Named(normalize_name(hit.name), hit.name, hit.type)
        decision = judge(item, other, hit.score, cfg)
        if decision is None:
            continue
        if decision.verdict is Verdict.MERGE:
            return hit.entity_id, decision.score, True
        edges.add(entity_id(item.key), hit.entity_id, decision.score, decision.method)
    return "", 0.0, bool(hits)
