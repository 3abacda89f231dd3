"""Preset names are checked before any ingest work starts."""

from __future__ import annotations

import importlib.util

import pytest

from bench.multihop import check_presets, store_preset
from core.errors import ConfigError
from retrieval.search import PRESETS


def test_store_preset_names() -> None:
    assert store_preset("bm25") is None
    assert store_preset("dense") is None  # the exact-cosine baseline
    assert store_preset("agent") is None
    assert store_preset("kg-dense") == "dense"
    assert store_preset("hybrid") == "hybrid"


def test_known_presets_pass() -> None:
    store_only = [p for p in PRESETS if p != "dense"]  # "dense" names the baseline here
    check_presets(["bm25", "dense", *store_only, *(f"kg-{p}" for p in PRESETS)])


@pytest.mark.parametrize(
    ("presets", "message"),
    [
        ([], "no presets"),
        (["bm25", "bm25"], "listed twice: bm25"),
        (["bm25", "nonsense"], "unknown preset 'nonsense'"),
        (["kg-bm25"], "unknown preset 'bm25'"),
    ],
)
def test_bad_preset_lists_are_config_errors(presets: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        check_presets(presets)


def test_agent_preset_needs_the_agent_ranking() -> None:
    if importlib.util.find_spec("agents.bench") is None:
        with pytest.raises(ConfigError, match=r"agents\.bench\.evidence_ranking"):
            check_presets(["agent"])
    else:
        check_presets(["agent"])
