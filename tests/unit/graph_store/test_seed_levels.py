"""Weighted seeds as GDS 2.13 walks: one walk per binary digit of the weights."""

from __future__ import annotations

import pytest

from graph_store.neo4j.rows import SEED_BITS, seed_walks


def _restart(walks: list[dict[str, object]]) -> dict[str, float]:
    """What each seed's restart weight is once the walks are summed."""
    out: dict[str, float] = {}
    for walk in walks:
        for node in walk["ids"]:  # type: ignore[attr-defined]
            out[node] = out.get(node, 0.0) + float(walk["weight"])  # type: ignore[arg-type]
    return out


def test_non_positive_seeds_go_and_equal_weights_share_their_walks() -> None:
    walks = seed_walks({"a": 1.0, "b": 1.0, "c": 0.5, "z": 0.0, "n": float("nan") * 0})
    got = _restart(walks)
    assert set(got) == {"a", "b", "c"}
    assert got["a"] == got["b"] == pytest.approx(1.0)
    assert got["c"] == pytest.approx(0.5, abs=1.0 / 254)
    assert seed_walks({}) == [] and seed_walks({"z": 0.0}) == []


def test_forty_distinct_weights_cost_at_most_seven_walks_and_stay_within_half_a_digit() -> None:
    seeds = {f"s{i}": 1.0 / (60 + i) for i in range(40)} | {"e": 0.02, "tiny": 1e-6}
    walks = seed_walks(seeds)
    assert len(walks) <= SEED_BITS
    got = _restart(walks)
    top = max(seeds.values())
    step = top / ((1 << SEED_BITS) - 1)
    assert set(got) == set(seeds)  # every seed restarts some walk, however light
    for s, w in seeds.items():
        assert abs(got[s] - w) <= step / 2 + 1e-12 or s == "tiny"
    assert got["tiny"] == pytest.approx(step)  # the lightest digit, not dropped
    assert sum(got.values()) == pytest.approx(sum(seeds.values()), rel=0.02)
