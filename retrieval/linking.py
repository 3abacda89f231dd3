"""Link a question to graph entities: the graph's own alias vocabulary, full-text over alias
names, and entity-embedding kNN, all asked of the read model (graph_store.read_model). No
lists of names anywhere: every alias comes from the documents. The one linker of the project:
the ``graph`` preset and the agent loop both call it."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from graph_store.read_model import GraphReadModel
from retrieval.config import RetrievalSettings
from retrieval.parallel import Reads


@dataclass(frozen=True)
class LinkedEntity:
    entity_id: str
    name: str
    score: float  # link confidence in [0, 1]
    method: str  # alias | fulltext | embedding
    specificity: float  # 1 for an entity in one chunk, falling with the number of chunks
    matched: str = ""
    span: tuple[int, int] | None = None  # word positions of an alias match in the question

    @property
    def weight(self) -> float:
        return self.score * self.specificity

    def as_dict(self) -> dict[str, object]:
        return {
            "entity_id": self.entity_id,
            "name": self.name,
            "score": round(self.score, 4),
            "method": self.method,
            "specificity": round(self.specificity, 4),
            "matched": self.matched,
        }


K = TypeVar("K", bound=Hashable)


def seed_weights(
    fused: Mapping[K, float],
    linked: Sequence[LinkedEntity],
    settings: RetrievalSettings,
    entity_node: Callable[[str], K],
) -> dict[K, float]:
    """The graph preset's walk seeds: the best fused chunks and the linked entities, each
    group normalised to its configured share. ``entity_node`` maps an entity id to the key the
    walk uses (a projection row in memory, the id itself on a graph database)."""
    seeds: dict[K, float] = {}
    top = sorted(fused.items(), key=lambda kv: -kv[1])[: settings.seed_chunks]
    total = sum(s for _, s in top) or 1.0
    for key, s in top:
        seeds[key] = settings.chunk_seed_weight * s / total
    entity_total = sum(x.weight for x in linked) or 1.0
    for x in linked:
        node = entity_node(x.entity_id)
        seeds[node] = seeds.get(node, 0.0) + settings.entity_seed_weight * x.weight / entity_total
    return seeds


def specificity(chunk_degree: int) -> float:
    """Inverse log of how many chunks mention the entity: a name in every document says
    little about which passage answers the question."""
    return 1.0 / math.log2(2.0 + max(0, chunk_degree - 1))


def link_entities(
    question: str,
    query_vector: Sequence[float],
    model: GraphReadModel,
    settings: RetrievalSettings,
) -> list[LinkedEntity]:
    found: dict[str, LinkedEntity] = {}

    def offer(
        entity_id: str,
        name: str,
        degree: int,
        score: float,
        method: str,
        matched: str,
        span: tuple[int, int] | None = None,
    ) -> None:
        link = LinkedEntity(
            entity_id,
            name,
            min(1.0, max(0.0, score)),
            method,
            specificity(degree),
            matched,
            span,
        )
        old = found.get(entity_id)
        if old is None or link.weight > old.weight:
            found[entity_id] = link

    reads = Reads(settings.parallel_reads)
    # The floor goes to the model: the in-memory one then reads a quarter of each name vector
    # for most names (retrieval/entity_space.py).
    nearest = reads.start(
        model.nearest_entities, query_vector, settings.link_candidates, settings.link_min_similarity
    )
    fulltext = (
        reads.start(model.fulltext_entities, question, settings.link_candidates)
        if settings.link_fulltext_weight > 0
        else None
    )
    for m in model.alias_matches(question):
        offer(m.entity_id, m.name, m.chunk_degree, m.confidence, "alias", m.span, (m.start, m.end))
    if fulltext is not None:
        hits = fulltext.result()
        top = max((h.score for h in hits), default=0.0)
        for h in hits:
            if top > 0:
                weight = settings.link_fulltext_weight * h.score / top
                offer(h.entity_id, h.name, h.chunk_degree, weight, "fulltext", h.matched)
    for h in nearest.result():
        offer(h.entity_id, h.name, h.chunk_degree, h.score, "embedding", h.name)
    # Most confident first (an exact alias before a fuzzy match), then the more specific; the
    # cap keeps the walk's reset mass on the question's own entities.
    ranked = sorted(found.values(), key=lambda x: (-x.score, -x.weight))
    return ranked[: settings.link_max_entities]
