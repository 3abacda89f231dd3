"""Graph view arithmetic: PageRank direction, percentiles, strongest paths by relation weight."""

from __future__ import annotations

import pytest

from agents.graph_view import GraphView, _pagerank, _percentiles

RELATIONS = [
    ("trust", "partnership", "MEMBER_OF", 1.0),
    ("other", "partnership", "MEMBER_OF", 1.0),
    ("partnership", "plan", "LEADS", 1.0),
    ("plan", "national", "IMPLEMENTS", 1.0),
    ("trust", "date", "CO_OCCURS", 0.2),
    ("date", "national", "CO_OCCURS", 0.2),
]
IDS = ["trust", "other", "partnership", "plan", "national", "date"]


def view() -> GraphView:
    adjacency: dict[str, list[tuple[str, str, float]]] = {}
    for a, b, rel, w in RELATIONS:
        adjacency.setdefault(a, []).append((b, rel, w))
        adjacency.setdefault(b, []).append((a, rel, w))
    rank = _pagerank(IDS, RELATIONS)
    return GraphView(
        entity_name={e: e.title() for e in IDS},
        chunk_doc={"c1": "d1", "c2": "d2", "c3": "d3"},
        chunk_entities={"c1": {"trust": 2}, "c2": {"national": 1, "date": 1}, "c3": {"date": 1}},
        entity_chunks={},
        adjacency=adjacency,
        entity_rank=rank,
        entity_percentile=_percentiles(rank),
    )


def test_pagerank_flows_along_relation_direction() -> None:
    rank = _pagerank(IDS, RELATIONS)
    assert sum(rank.values()) == pytest.approx(1.0)
    assert rank["national"] > rank["plan"] > rank["trust"]
    assert rank["partnership"] > rank["other"]


def test_percentiles_rank_share_with_ties() -> None:
    assert _percentiles({"a": 1.0, "b": 2.0, "c": 2.0, "d": 3.0}) == {
        "a": 0.0,
        "b": 1 / 3,
        "c": 1 / 3,
        "d": 1.0,
    }
    assert _percentiles({"only": 5.0}) == {"only": 1.0}


def test_reach_keeps_hop_count_and_prefers_strong_paths() -> None:
    g = view()
    reach = g.reach({"trust": 1.0}, 3)
    # Two hops through co-occurrence, three through stated relations: distance is the hop
    # count, but the stronger path explains the link.
    assert reach["national"].distance == 2 and reach["national"].strength == pytest.approx(0.04)
    assert g.path(reach, "plan") == ["Trust", "MEMBER_OF", "Partnership", "LEADS", "Plan"]
    assert "national" not in g.reach({"trust": 1.0}, 1)


def test_chunk_distance_and_authority() -> None:
    g = view()
    reach = g.reach({"trust": 1.0}, 3)
    assert g.chunk_distance("c1", reach) == 0
    assert g.chunk_distance("c2", reach) == 1
    value, entity = g.chunk_authority("c2", reach)
    assert entity in {"national", "date"} and 0 < value <= 1
    assert g.chunk_authority("c1", reach) == (0.0, None)  # the source itself does not count
