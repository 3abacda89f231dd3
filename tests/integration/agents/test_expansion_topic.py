"""Graph expansion follows the question's topic: a workforce and a digital question about one
trust rank the trust's neighbours differently (by authority blended with the neighbour's
relevance to the question), while authority alone ranks them the same."""

from __future__ import annotations

from agents.config import AgentSettings
from agents.context import link_entities, neighbours
from kg.container import Container

SUBJECT = "Northdale Mental Health Trust"
WORKFORCE = f"How is {SUBJECT} recruiting nurses and reducing staff vacancies?"
DIGITAL = f"How is {SUBJECT} connecting to the shared care record and digital systems?"


def _order(container: Container, question: str, settings: AgentSettings) -> list[str]:
    searcher = container.searcher()
    vector = container.embedder.embed([question])[0]
    links = link_entities(searcher.model, question, vector, settings, searcher.settings)
    assert SUBJECT in {e.name for e in links.entities}
    _, ranked = neighbours(searcher.model, links.entities, settings, vector)
    return [n.name for n in ranked[:5]]


def test_two_topics_about_one_trust_expand_to_different_neighbours(
    demo_container: Container,
) -> None:
    topical = AgentSettings()
    assert topical.neighbour_relevance_weight > 0
    workforce = _order(demo_container, WORKFORCE, topical)
    digital = _order(demo_container, DIGITAL, topical)
    assert workforce != digital, workforce

    by_authority = AgentSettings(neighbour_relevance_weight=0.0)
    assert _order(demo_container, WORKFORCE, by_authority) == _order(
        demo_container, DIGITAL, by_authority
    )
