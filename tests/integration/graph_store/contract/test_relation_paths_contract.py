"""Relation paths on every store: the cheapest path within the hop bound, equal costs to the
stronger path, and a ``ReachKeep`` that returns only what a caller reads, each entry with its
whole path, even where a later round moved an entry on that path."""

from __future__ import annotations

from typing import Any

import pytest

from graph_schema import Relation
from graph_store.read_model import GraphReadModel, ReachKeep, kept_paths
from tests.integration.graph_store.contract.conftest import graph

# (source, target, type, weight). From the source "a":
# - c: straight over a weak LEADS (cost 1.9) beats the detour through b (1 + 1.5);
# - x: through m9 (forward twice) and through m1 (the second edge stored x -> m1, so walked
#   backwards) cost the same; the stronger, forward path wins over the lower id;
# - y: two hops over weightless edges (cost 4) until round three finds a -> p1 -> p2 -> y
#   (cost 3), after z had been offered through y's two-hop entry: z's path then runs through
#   y's new one (p2, p1), which only a later read of the paths can return.
EDGES = [
    ("a", "b", "PART_OF", 1.0),
    ("c", "b", "FUNDS", 0.5),
    ("a", "c", "LEADS", 0.1),
    ("a", "m9", "PART_OF", 1.0),
    ("m9", "x", "PART_OF", 1.0),
    ("a", "m1", "PART_OF", 1.0),
    ("x", "m1", "PART_OF", 1.0),
    ("a", "y1", "CO_OCCURS", 0.0),
    ("y1", "y", "CO_OCCURS", 0.0),
    ("a", "p1", "PART_OF", 1.0),
    ("p1", "p2", "PART_OF", 1.0),
    ("p2", "y", "PART_OF", 1.0),
    ("y", "z", "PART_OF", 1.0),
]


@pytest.fixture()
def paths(store: Any, read_model: GraphReadModel) -> GraphReadModel:
    entities = sorted({e for a, b, _, _ in EDGES for e in (a, b)})
    doc = graph("dp", ["the paths document"], entities, [])
    relations = tuple(
        Relation(source_id=a, target_id=b, type=t, weight=w, evidence=(doc.chunks[0].id,))
        for a, b, t, w in EDGES
    )
    store.upsert_documents([doc.model_copy(update={"relations": relations})])
    store.refresh_indexes()
    return read_model


def shape(reach: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {
        e: (h.hops, h.via, h.relation, h.forward, round(h.strength, 6), round(h.cost, 6))
        for e, h in reach.items()
    }


def test_the_cheapest_path_and_ties_to_the_stronger(paths: GraphReadModel) -> None:
    got = shape(paths.relation_paths({"a": 1.0}, 3, hop_decay=0.8, backward=0.5))
    assert got["c"] == (1, "a", "LEADS", True, 0.1, 1.9)
    assert got["x"] == (2, "m9", "PART_OF", True, 0.8, 2.0)
    assert got["y"] == (3, "p2", "PART_OF", True, 0.64, 3.0)
    assert got["z"] == (3, "y", "PART_OF", True, 0.0, 5.0)
    assert got["a"] == (0, None, "", True, 1.0, 0.0)
    assert set(got) == {"a", "b", "c", "m1", "m9", "x", "y1", "y", "p1", "p2", "z"}


@pytest.mark.parametrize(
    ("min_strength", "targets"),
    [
        (0.7, frozenset()),
        (None, frozenset({"z"})),
        (0.5, frozenset({"c", "z"})),
        (None, frozenset()),
    ],
)
def test_keep_returns_what_is_read_with_whole_paths(
    paths: GraphReadModel, min_strength: float | None, targets: frozenset[str]
) -> None:
    keep = ReachKeep(min_strength, targets)
    full = paths.relation_paths({"a": 1.0}, 3, hop_decay=0.8, backward=0.5)
    got = paths.relation_paths({"a": 1.0}, 3, hop_decay=0.8, backward=0.5, keep=keep)
    assert shape(got) == shape(kept_paths(full, keep))
    for hop in got.values():
        assert hop.via is None or hop.via in got
    if "z" in targets:  # z's path runs through y's later, cheaper path
        assert {"z", "y", "p2", "p1", "a"} <= got.keys()
    if targets == frozenset():
        assert got.keys() == (
            {"a"} if min_strength is None else {"a", "b", "m9", "x", "m1", "p1", "p2"}
        )
