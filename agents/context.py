"""The question in graph terms: linked entities, their strongest neighbours, its complexity.

Linking is the project's one linker (``retrieval.linking``, the ``graph`` preset's): the
graph's own alias vocabulary, then entity-embedding kNN, through the read model. The agent
keeps the alias links when there are any, else the closest entity by name embedding if it is
similar enough. Neighbours are ranked by authority reached through the graph (entity PageRank
percentile x path strength) along the read model's relation paths. Offline complexity counts
the distinct things the question names: matches whose spans overlap in the question ("AWT"
inside "AWT priorities") are one thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agents.config import AgentSettings, Complexity
from agents.graph_reach import GraphReach
from agents.models import LinkedEntity, Neighbour
from graph_store.read_model import GraphReadModel
from reader.question import STOPWORDS, words
from retrieval.config import RetrievalSettings
from retrieval.linking import link_entities as link_question


@dataclass(frozen=True)
class Links:
    entities: list[LinkedEntity]
    groups: int  # distinct things named (overlapping spans merged)


def link_entities(
    model: GraphReadModel,
    question: str,
    question_vector: Sequence[float],
    settings: AgentSettings,
    retrieval: RetrievalSettings,
) -> Links:
    tuned = retrieval.model_copy(
        update={
            "link_min_similarity": settings.link_min_similarity,
            "link_max_entities": max(retrieval.link_max_entities, settings.max_linked_entities),
        }
    )
    found = link_question(question, question_vector, model, tuned)
    named = [x for x in found if x.method != "embedding"]
    # Longer matches are more specific; order by span length, then first position.
    named.sort(key=lambda x: (-(x.span[1] - x.span[0]), x.span[0]) if x.span else (0, 0))
    named = named[: settings.max_linked_entities]
    if named:
        linked = [
            LinkedEntity(
                entity_id=x.entity_id, name=x.name, score=x.score, method="alias", matched=x.matched
            )
            for x in named
        ]
        return Links(linked, _span_groups([x.span for x in named if x.span]))
    best = max((x for x in found if x.method == "embedding"), key=lambda x: x.score, default=None)
    if best is None:
        return Links([], 0)
    return Links(
        [
            LinkedEntity(
                entity_id=best.entity_id, name=best.name, score=best.score, method="embedding"
            )
        ],
        1,
    )


def _span_groups(spans: list[tuple[int, int]]) -> int:
    groups = 0
    end = -1
    for start, stop in sorted(spans):
        if start >= end:
            groups += 1
        end = max(end, stop)
    return groups


def topic_text(question: str) -> str:
    """The question's topic: its words less the names it uses and function words ("Who
    chairs the board of Acme Widgets?" -> "chairs board"). Expansion is ranked by relevance to
    this, not to the whole question, whose names make look-alikes of the subject (another
    "... Wind Farm", another "... Olympiad") seem the most relevant neighbours. The whole
    question when it is all names."""
    kept = [
        w
        for i, w in enumerate(words(question))
        if len(w) > 2
        and w.lower() not in STOPWORDS
        and not (i > 0 and w[:1].isupper())
        and not w[:1].isdigit()
    ]
    return " ".join(kept) or question


def neighbours(
    model: GraphReadModel,
    linked: list[LinkedEntity],
    settings: AgentSettings,
    question_vector: Sequence[float] | None = None,
) -> tuple[GraphReach, list[Neighbour]]:
    """Reached entities, best first by authority blended with their name's similarity to
    ``question_vector``, the embedding of the question's topic (``topic_text``;
    ``neighbour_relevance_weight``): expansion follows the topic, so a workforce and a
    digital question about one subject expand differently."""
    sources = {e.entity_id: e.score for e in linked}
    reach = GraphReach.of(model, sources, settings.max_hops)
    ranked: list[Neighbour] = []
    for entity_id, hop in reach.reach.items():
        if hop.hops == 0:
            continue
        ranked.append(
            Neighbour(
                entity_id=entity_id,
                name=hop.name,
                hops=hop.hops,
                strength=hop.strength,
                authority=reach.authority(entity_id),
                path=reach.path(entity_id),
            )
        )
    relevance = _relevance(model, [n.entity_id for n in ranked], question_vector)
    w = settings.neighbour_relevance_weight if relevance else 0.0
    ranked.sort(
        key=lambda n: (
            -((1 - w) * n.authority + w * relevance.get(n.entity_id, 0.0)),
            n.hops,
            n.name,
        )
    )
    return reach, ranked


def _relevance(
    model: GraphReadModel, entity_ids: list[str], vector: Sequence[float] | None
) -> dict[str, float]:
    """Cosine of each entity's name embedding with the question's (clipped at 0)."""
    if vector is None or not entity_ids:
        return {}
    sims = model.entity_similarities(entity_ids, vector)
    return {e: max(0.0, s) for e, s in sims.items()}


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
