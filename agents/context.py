"""The question in graph terms: linked entities, their strongest neighbours, its complexity.

Linking matches every word n-gram of the normalised question against the graph's own alias
vocabulary (exact keys, as entity resolution stored them); when nothing matches, the entity
whose name embedding is nearest the question is taken if it is similar enough. Neighbours are
ranked by authority reached through the graph (entity PageRank percentile x path strength).
Offline complexity counts the distinct things the question names: matches whose spans
overlap in the question ("NMHT" inside "NMHT priorities") are one thing.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.config import AgentSettings, Complexity
from agents.graph_view import GraphView, Hop
from agents.models import LinkedEntity, Neighbour
from core.names import normalize_name
from graph_store import GraphStore

# Longest alias, in words, looked up as one n-gram; longer names are titles matched by embedding.
MAX_ALIAS_WORDS = 10


@dataclass(frozen=True)
class Links:
    entities: list[LinkedEntity]
    groups: int  # distinct things named (overlapping spans merged)


def link_entities(
    store: GraphStore,
    view: GraphView,
    question: str,
    question_vector: list[float],
    settings: AgentSettings,
) -> Links:
    words = normalize_name(question).split()
    spans: dict[str, tuple[int, int]] = {}
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + MAX_ALIAS_WORDS) + 1):
            spans.setdefault(" ".join(words[i:j]), (i, j))
    targets = store.alias_targets(sorted(spans))
    matched: dict[str, tuple[int, int]] = {}
    for key, entity_id in targets.items():
        span = spans[key]
        old = matched.get(entity_id)
        if old is None or span[1] - span[0] > old[1] - old[0]:
            matched[entity_id] = span
    # Longer matches are more specific; order by span length, then first position.
    order = sorted(matched, key=lambda e: (-(matched[e][1] - matched[e][0]), matched[e][0]))
    order = order[: settings.max_linked_entities]
    linked = [
        LinkedEntity(entity_id=e, name=view.entity_name.get(e, e), score=1.0, method="alias")
        for e in order
    ]
    groups = _span_groups([matched[e] for e in order])
    if not linked:
        for hit in store.vector_search_entities(question_vector, 1):
            if hit.score >= settings.link_min_similarity:
                linked.append(
                    LinkedEntity(
                        entity_id=hit.entity_id, name=hit.name, score=hit.score, method="embedding"
                    )
                )
                groups = 1
    return Links(linked, groups)


def _span_groups(spans: list[tuple[int, int]]) -> int:
    groups = 0
    end = -1
    for start, stop in sorted(spans):
        if start >= end:
            groups += 1
        end = max(end, stop)
    return groups


def neighbours(
    view: GraphView, linked: list[LinkedEntity], settings: AgentSettings
) -> tuple[dict[str, Hop], list[Neighbour]]:
    sources = {e.entity_id: e.score for e in linked if e.entity_id in view.entity_name}
    reach = view.reach(sources, settings.max_hops)
    ranked: list[Neighbour] = []
    for entity_id, hop in reach.items():
        if hop.distance == 0:
            continue
        authority = view.entity_percentile.get(entity_id, 0.0) * hop.strength
        ranked.append(
            Neighbour(
                entity_id=entity_id,
                name=view.entity_name.get(entity_id, entity_id),
                hops=hop.distance,
                strength=hop.strength,
                authority=authority,
                path=view.path(reach, entity_id),
            )
        )
    ranked.sort(key=lambda n: (-n.authority, n.hops, n.name))
    return reach, ranked


def complexity_of(groups: int, settings: AgentSettings) -> Complexity:
    if groups >= settings.complex_min_entities:
        return "complex"
    if groups >= settings.moderate_min_entities:
        return "moderate"
    return "simple"


def iteration_budget(complexity: Complexity, settings: AgentSettings) -> int:
    wanted = {
        "simple": settings.iterations_simple,
        "moderate": settings.iterations_moderate,
        "complex": settings.iterations_complex,
    }[complexity]
    return min(wanted, settings.max_iterations)
