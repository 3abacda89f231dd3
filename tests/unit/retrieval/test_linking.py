"""Entity linking and the in-memory read model's linking inputs, over a small projection."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import pytest

from graph_store import GraphStore
from graph_store.types import ProjectionData
from retrieval.config import RetrievalSettings
from retrieval.linking import link_entities, specificity
from retrieval.read_model import InMemoryReadModel
from tests.unit.retrieval.test_ppr import _data


class _Store:
    """The two reads the in-memory model makes of a store."""

    def __init__(self, data: ProjectionData) -> None:
        self.data = data

    def graph_version(self) -> str:
        return self.data.version

    def projection_data(self) -> ProjectionData:
        return self.data


def model_of(data: ProjectionData) -> InMemoryReadModel:
    return InMemoryReadModel(cast(GraphStore, _Store(data)))


def test_nearest_entities_is_exact_cosine_best_first() -> None:
    data = _data([("c0", "d0")], ["a", "b", "c"], [("c0", "a", 1)])
    vectors = [[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]
    model = model_of(replace(data, entity_embeddings=vectors))
    got = model.nearest_entities([0.0, 2.0], k=2)
    assert [h.entity_id for h in got] == ["c", "b"]
    assert got[0].score == pytest.approx(1.0) and got[1].score == pytest.approx(0.8)
    assert len(model.nearest_entities([1.0, 0.0], k=10)) == 3


def test_alias_matches_longest_span_with_positions_and_degree() -> None:
    data = _data(
        [("c0", "d0"), ("c1", "d1")],
        ["Leeds Trust", "Leeds"],
        [("c0", "Leeds Trust", 1), ("c1", "Leeds", 1), ("c0", "Leeds", 1)],
    )
    data = replace(
        data,
        entity_embeddings=[[1.0, 0.0], [0.0, 1.0]],
        aliases=[("LT", "Leeds Trust", 0.9)],
    )
    model = model_of(data)
    got = model.alias_matches("Who runs Leeds Trust and LT today?")
    assert [(m.span, m.start, m.end, m.entity_id) for m in got] == [
        ("Leeds Trust", 2, 4, "Leeds Trust"),  # "Leeds" alone is inside the longer span
        ("LT", 5, 6, "Leeds Trust"),
    ]
    assert got[1].confidence == pytest.approx(0.9)
    assert got[0].chunk_degree == 1
    # A one-word lower-case match is a common word, not a name.
    assert model.alias_matches("leeds") == []


def test_link_entities_ranks_alias_before_embedding_and_weighs_specificity() -> None:
    data = _data(
        [("c0", "d0"), ("c1", "d1"), ("c2", "d2")],
        ["Alpha", "Beta"],
        [("c0", "Alpha", 1), ("c1", "Beta", 1), ("c2", "Beta", 1)],
    )
    model = model_of(replace(data, entity_embeddings=[[1.0, 0.0], [0.0, 1.0]]))
    settings = RetrievalSettings(link_min_similarity=0.5)
    linked = link_entities("What is Alpha?", [0.1, 1.0], model, settings)
    assert [(x.entity_id, x.method) for x in linked] == [("Alpha", "alias"), ("Beta", "embedding")]
    assert linked[0].span == (2, 3)
    assert linked[1].specificity == pytest.approx(specificity(2)) and specificity(2) < 1.0
    # Below the similarity floor the embedding link is dropped.
    strict = RetrievalSettings(link_min_similarity=0.999)
    assert [x.entity_id for x in link_entities("What is Alpha?", [0.1, 1.0], model, strict)] == [
        "Alpha"
    ]
