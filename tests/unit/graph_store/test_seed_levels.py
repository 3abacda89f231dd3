"""Weighted seeds rounded to a few levels for GDS 2.13 (one walk per distinct weight)."""

from __future__ import annotations

import pytest

from graph_store.neo4j.read_model import quantize_seeds


def test_equal_weights_stay_and_non_positive_seeds_go() -> None:
    seeds = {"a": 1.0, "b": 1.0, "c": 0.5, "z": 0.0}
    assert quantize_seeds(seeds) == {"a": 1.0, "b": 1.0, "c": 0.5}


def test_many_weights_become_few_levels_that_keep_their_totals() -> None:
    seeds = {f"s{i}": 1.0 / (60 + i) for i in range(40)} | {"e": 0.5}
    got = quantize_seeds(seeds, 1.25)
    assert len(set(got.values())) <= 4  # 40 RRF weights (1.65x apart) and the entity
    assert sum(got.values()) == pytest.approx(sum(seeds.values()))
    assert got["e"] == pytest.approx(0.5)  # alone on the top level
    assert max(abs(got[s] / w - 1) for s, w in seeds.items()) < 0.125
