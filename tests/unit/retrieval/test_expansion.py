"""Relation paths from the question's entities on graphs small enough to check by hand."""

from __future__ import annotations

import random

import numpy as np
import pytest

from graph_store.read_model import ReachKeep
from retrieval.expansion import LastRound, expand, explain, kept_positions
from retrieval.graph_index import GraphIndex
from retrieval.topology import Topology
from tests.unit.retrieval.test_ppr import _data
from tests.unit.retrieval.test_topology import invented_graph, topology_of


def _index(relations: list[tuple[str, str, str, float]]) -> GraphIndex:
    entities = sorted({r[0] for r in relations} | {r[1] for r in relations} | {"z"})
    chunks = [("c0", "d0")]
    return GraphIndex(_data(chunks, entities, [("c0", "d", 1)], relations))


def test_stated_path_beats_cheaper_looking_chance_hop() -> None:
    # a -MEMBER_OF-> b -IMPLEMENTS-> c costs 2; a -CO_OCCURS(0.2)- d costs 1.8: the
    # chance hop is cheap but weak (0.2), c is two stated hops at strength 0.8.
    idx = _index(
        [
            ("a", "b", "MEMBER_OF", 1.0),
            ("b", "c", "IMPLEMENTS", 1.0),
            ("a", "d", "CO_OCCURS", 0.2),
        ]
    )
    pos = idx.entity_index
    out = expand({pos["a"]: 2.0}, idx, max_hops=3, hop_decay=0.8, backward=0.5)
    assert out.cost[pos["a"]] == 0.0 and out.strength[pos["a"]] == pytest.approx(1.0)
    assert out.cost[pos["b"]] == pytest.approx(1.0) and out.hops[pos["b"]] == 1
    assert out.cost[pos["c"]] == pytest.approx(2.0) and out.hops[pos["c"]] == 2
    assert out.strength[pos["c"]] == pytest.approx(0.8)  # one hop of decay after the first
    assert out.cost[pos["d"]] == pytest.approx(1.8)
    assert out.strength[pos["d"]] == pytest.approx(0.2)
    assert not out.reached(pos["z"])
    assert sorted(int(e) for e in out.strong(0.5)) == sorted([pos["b"], pos["c"]])
    steps = out.path_to(pos["c"], idx)
    assert [(s.source, s.relation, s.target, s.forward) for s in steps] == [
        ("a", "MEMBER_OF", "b", True),
        ("b", "IMPLEMENTS", "c", True),
    ]


def test_backward_edges_and_hop_limit() -> None:
    # Chain a <- b <- c <- d <- e: every edge walked against its direction.
    idx = _index([("b", "a", "PART_OF", 1.0), ("c", "b", "PART_OF", 1.0)])
    idx2 = _index([(x, y, "PART_OF", 1.0) for x, y in ("ba", "cb", "dc", "ed")])
    pos = idx.entity_index
    out = expand({pos["a"]: 1.0}, idx, max_hops=3, hop_decay=0.8, backward=0.5)
    assert out.strength[pos["b"]] == pytest.approx(0.5)
    assert out.strength[pos["c"]] == pytest.approx(0.5 * 0.8 * 0.5)
    reach = out.get(pos["c"])
    assert reach is not None and reach.parent == pos["b"] and reach.hops == 2
    far = expand({idx2.entity_index["a"]: 1.0}, idx2, max_hops=3)
    assert far.reached(idx2.entity_index["d"]) and not far.reached(idx2.entity_index["e"])
    text, end = explain(0, out, idx, via=pos["c"])
    assert end == pos["c"] and text[0] == "a <-[PART_OF]- b" and "subject" in text[-1]


def test_no_seeds_reach_nothing() -> None:
    idx = _index([("a", "b", "MEMBER_OF", 1.0)])
    out = expand({}, idx, max_hops=3)
    assert not out.reached(0) and explain(0, out, idx) == ([], -1)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_final_round_settles_what_is_kept_as_a_full_search_does(seed: int) -> None:
    """``LastRound`` leaves unsettled only final-round entities nobody keeps: the kept
    entities, their costs, hops, parents and strengths are the full search's."""
    topology = Topology(topology_of(invented_graph(seed)))
    rng = random.Random(seed)
    entities = np.flatnonzero(topology.entity).tolist()
    for min_strength in (None, 0.05, 0.3, 0.9):
        for hops in (1, 2, 3):
            seeds = {pos: rng.random() for pos in rng.sample(entities, 2)}
            keep = ReachKeep(min_strength, frozenset())
            targets = rng.sample(entities, 12)
            full = expand(seeds, topology, hops, 0.8, 0.5)
            fast = expand(seeds, topology, hops, 0.8, 0.5, LastRound.of(keep, targets))
            want = kept_positions(full, keep, targets)
            assert kept_positions(fast, keep, targets).tolist() == want.tolist()
            for column in ("cost", "hops", "parent", "edge", "strength"):
                assert getattr(fast, column)[want].tolist() == getattr(full, column)[want].tolist()
    assert LastRound.of(None, [1]) is None
