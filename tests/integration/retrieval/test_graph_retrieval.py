"""The graph preset on the demo graph: multi-hop reach through typed relations, paths,
linking, filters, presets."""

from __future__ import annotations

import json

import pytest

from core.errors import ConfigError
from kg.container import Container
from retrieval.config import RetrievalSettings
from retrieval.filters import SearchFilters
from retrieval.search import Searcher
from tests.conftest import FIXTURES

EXPECTED = json.loads((FIXTURES / "demo_expected.json").read_text(encoding="utf-8"))


def test_trust_question_reaches_national_plan_through_relations(
    demo_container: Container,
) -> None:
    question = EXPECTED["question"]
    plan = EXPECTED["national_plan_title"]
    # The question shares no keyword with the national plan's title.
    assert not {w.lower().strip("?'s") for w in question.split()} & {
        w.lower() for w in plan.split() if len(w) > 3
    }
    got = demo_container.searcher().retrieve(question, k=8, preset="graph")
    titles = [r.doc_title for r in got.results]
    assert EXPECTED["trust_priorities_title"] in titles
    assert plan in titles
    hit = next(r for r in got.results if r.doc_title == plan)
    # The path names the stated relations from the trust to the plan, hop by hop.
    assert len(hit.path) >= 2
    assert "Northdale Mental Health Trust" in hit.path[0]
    assert any("IMPLEMENTS" in step for step in hit.path)
    assert plan in hit.path[-1]
    assert {"ppr", "dense", "bm25", "authority"} <= set(hit.components)
    assert any(x.name == "Northdale Mental Health Trust" for x in got.linked)
    assert any(name == "Northdale Health and Care Partnership" for _, name in got.bridges)


def test_alias_links_to_canonical_entity(demo_container: Container) -> None:
    got = demo_container.searcher().retrieve("What does Northdale Minds run?", k=5)
    assert got.linked
    top = got.linked[0]
    assert (top.name, top.method, top.matched) == (
        "Northdale Mental Health Trust",
        "alias",
        "Northdale Minds",
    )


def test_filters_apply_to_every_preset(demo_container: Container) -> None:
    searcher = demo_container.searcher()
    only_policy = SearchFilters(doc_type="national policy")
    for preset in ("dense", "hybrid", "graph"):
        results = searcher.search("national health priorities", 5, preset, only_policy)
        assert results, preset
        assert {r.doc_title for r in results} == {EXPECTED["national_plan_title"]}, preset
    recent = SearchFilters(date_from="2026-01-01")
    for preset in ("dense", "hybrid", "graph"):
        results = searcher.search("national health priorities", 5, preset, recent)
        assert EXPECTED["national_plan_title"] not in {r.doc_title for r in results}, preset


def test_presets_and_errors(demo_container: Container) -> None:
    searcher = demo_container.searcher()
    for preset in ("dense", "hybrid", "graph"):
        results = searcher.search(EXPECTED["question"], 4, preset)
        assert 0 < len(results) <= 4
        assert len({r.chunk_id for r in results}) == len(results)
    assert searcher.search("   ", 4) == []
    with pytest.raises(ConfigError):
        searcher.search("x", 3, "nope")


def test_authority_is_stored_after_ingest(demo_container: Container) -> None:
    data = demo_container.store.projection_data()
    by_title = dict(zip(data.doc_titles, data.doc_authority, strict=True))
    assert by_title[EXPECTED["national_plan_title"]] > 0
    assert max(data.entity_pagerank) > 0
    # Refreshing an unchanged graph keeps the version: retrieval caches stay valid.
    version = demo_container.store.graph_version()
    demo_container.store.refresh_indexes()
    assert demo_container.store.graph_version() == version


def test_a_walk_that_stays_on_its_seeds_still_ranks_the_relation_picks(
    demo_container: Container,
) -> None:
    # A prune so high that no node spreads its mass and no passage among the seeds: the walk
    # scores the linked entities only, and the document reached along the trust's relations
    # (which shares no word with the question) comes from the strategic slots alone.
    narrow = {"walk_prune": 1.0, "seed_chunks": 0, "candidate_pool": 5}
    settings = RetrievalSettings.model_validate(
        {**demo_container.settings.retrieval.model_dump(), **narrow}
    )
    searcher = Searcher(demo_container.store, demo_container.embedder, settings)
    got = searcher.retrieve(EXPECTED["question"], k=8, preset="graph")
    hit = next(r for r in got.results if r.doc_title == EXPECTED["national_plan_title"])
    assert hit.components.get("strategic") == 1.0
    assert hit.components["ppr"] == 0.0
    assert hit.score > 0
