"""PageRank and personalized PageRank on graphs small enough to solve by hand."""

from __future__ import annotations

import numpy as np
import pytest

from graph_store.types import ProjectionData
from retrieval.projection import Projection


def _data(
    chunks: list[tuple[str, str]],
    entities: list[str],
    mentions: list[tuple[str, str, int]],
    relations: list[tuple[str, str, str, float]] | None = None,
) -> ProjectionData:
    docs = sorted({d for _, d in chunks})
    return ProjectionData(
        version="v",
        doc_ids=docs,
        doc_titles=docs,
        doc_meta=[("", "", "")] * len(docs),
        doc_authority=[0.0] * len(docs),
        chunk_ids=[c for c, _ in chunks],
        chunk_docs=[d for _, d in chunks],
        chunk_index=list(range(len(chunks))),
        chunk_tokens=[10] * len(chunks),
        chunk_embeddings=[[1.0, 0.0]] * len(chunks),
        entity_ids=entities,
        entity_names=entities,
        entity_types=[""] * len(entities),
        entity_pagerank=[0.0] * len(entities),
        mentions=mentions,
        relations=relations or [],
        aliases=[],
    )


def test_ppr_two_nodes_matches_closed_form() -> None:
    # c0 — e0. Reset on c0: r_c = 1/(1+d), r_e = d/(1+d).
    p = Projection(_data([("c0", "d0")], ["e0"], [("c0", "e0", 1)]))
    for d in (0.5, 0.85):
        scores = p.personalized({"c0": 1.0}, damping=d)
        assert scores["c0"] == pytest.approx(1 / (1 + d), abs=1e-6)
        assert scores["e0"] == pytest.approx(d / (1 + d), abs=1e-6)


def test_global_pagerank_star_matches_closed_form() -> None:
    # Three chunks each linked only to e0, in different documents (no NEXT edges).
    chunks = [("c0", "d0"), ("c1", "d1"), ("c2", "d2")]
    p = Projection(_data(chunks, ["e0"], [(c, "e0", 1) for c, _ in chunks]))
    d = 0.85
    result = p.pagerank(damping=d)
    assert result.converged
    centre = (1 + 3 * d) / (4 * (1 + d))
    assert result.scores[p.entity_pos["e0"]] == pytest.approx(centre, abs=1e-6)
    assert result.scores.sum() == pytest.approx(1.0)
    assert np.allclose(result.scores[:3], (1 - centre) / 3, atol=1e-6)


def test_dangling_node_returns_mass_to_reset() -> None:
    # e1 has no edges: a walk there jumps back to the reset vector.
    p = Projection(_data([("c0", "d0")], ["e0", "e1"], [("c0", "e0", 1)]))
    scores = p.personalized({"e1": 1.0}, damping=0.85)
    assert scores == {"e1": pytest.approx(1.0)}


def test_weights_steer_the_walk() -> None:
    # e0 links to e1 strongly and to e2 weakly: PPR from e0 prefers e1 by the weight ratio.
    p = Projection(
        _data(
            [("c0", "d0")],
            ["e0", "e1", "e2"],
            [("c0", "e0", 1)],
            [("e0", "e1", "LEADS", 1.0), ("e0", "e2", "CO_OCCURS", 0.2)],
        )
    )
    scores = p.personalized({"e0": 1.0}, damping=0.85)
    assert scores["e1"] / scores["e2"] == pytest.approx(5.0, rel=1e-6)


def test_next_edges_link_chunks_of_one_document_only() -> None:
    chunks = [("c0", "d0"), ("c1", "d0"), ("c2", "d1")]
    p = Projection(_data(chunks, ["e0"], [("c2", "e0", 1)]))
    scores = p.personalized({"c0": 1.0}, damping=0.85)
    assert scores["c1"] > 0
    assert "c2" not in scores


def test_authority_uses_the_document_subject() -> None:
    # d_plan's title names entity "Plan", which three other documents mention.
    chunks = [("p0", "Plan"), ("a0", "A"), ("b0", "B"), ("c0", "C")]
    mentions = [("p0", "Plan", 1), ("a0", "Plan", 1), ("b0", "Plan", 1), ("c0", "Plan", 1)]
    mentions += [("a0", "X", 1)]
    data = _data(chunks, ["Plan", "X"], mentions)
    entities, docs = Projection(data).authority(data)
    assert entities["Plan"] > entities["X"]
    assert docs["Plan"] == pytest.approx(entities["Plan"])
    assert docs["Plan"] > max(docs["A"], docs["B"], docs["C"])


def test_empty_projection() -> None:
    p = Projection(_data([], [], []))
    assert p.pagerank().scores.size == 0
    assert p.personalized({"x": 1.0}) == {}


def test_the_top_k_are_the_first_k_of_all_scores_sorted_ties_by_id() -> None:
    # A hub chunk mentioning six entities, each mentioned by one more chunk: seeded on the
    # hub, the six entities tie with each other, and so do their six chunks.
    leaves = [f"e{i}" for i in (3, 1, 5, 0, 4, 2)]
    chunks = [("hub", "d0")] + [(f"c{e}", f"d{e}") for e in leaves]
    mentions = [("hub", e, 1) for e in leaves] + [(f"c{e}", e, 1) for e in leaves]
    p = Projection(_data(chunks, leaves, mentions))
    scores = p.personalized({"hub": 1.0}, damping=0.85)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    for k in range(0, len(ranked) + 2):
        top = p.personalized_top({"hub": 1.0}, k, damping=0.85)
        assert list(top.items()) == ranked[:k], k


def _hub(leaves: int) -> Projection:
    # c0 and a chain c0 - e0 - c1 - e1; c0 also mentions a hub that ``leaves`` chunks mention.
    chunks = [("c0", "d0"), ("c1", "d1")] + [(f"l{i}", f"dl{i}") for i in range(leaves)]
    mentions = [("c0", "e0", 1), ("c1", "e0", 1), ("c1", "e1", 1), ("c0", "hub", 1)]
    mentions += [(f"l{i}", "hub", 1) for i in range(leaves)]
    return Projection(_data(chunks, ["e0", "e1", "hub"], mentions))


def test_a_pruned_walk_leaves_a_hub_that_holds_too_little_mass_per_edge() -> None:
    p = _hub(1000)
    exact = p.personalized({"c0": 1.0}, damping=0.5)
    pruned = p.personalized({"c0": 1.0}, damping=0.5, prune=1e-3)
    assert len(exact) == 1005  # every leaf, through the hub
    # The hub's share (about a quarter) is far below 1e-3 per each of its 1,001 edges: it keeps
    # its mass and sends none to the leaves; the chain beyond e0 is still walked.
    assert "hub" in pruned and not any(n.startswith("l") for n in pruned)
    assert {"c0", "e0", "c1", "e1"} <= set(pruned)


def test_a_pruned_walk_is_a_lower_bound_of_the_exact_walk() -> None:
    p = _hub(50)
    exact = p.personalized({"c0": 1.0, "e1": 0.5}, damping=0.5)
    for prune in (1e-6, 1e-4, 1e-2):
        pruned = p.personalized({"c0": 1.0, "e1": 0.5}, damping=0.5, prune=prune)
        assert set(pruned) <= set(exact)
        for node, score in pruned.items():
            assert score <= exact[node] + 1e-12, (prune, node)
    assert p.personalized({"c0": 1.0}, damping=0.5, prune=1e-9) == pytest.approx(
        p.personalized({"c0": 1.0}, damping=0.5), abs=1e-6
    )


def test_a_walk_steps_from_the_nodes_it_reached_only() -> None:
    # Two components: a walk seeded in one never numbers a node of the other.
    chunks = [("a0", "da"), ("b0", "db")]
    p = Projection(_data(chunks, ["ea", "eb"], [("a0", "ea", 1), ("b0", "eb", 1)]))
    nodes, _scores = p._personalized_scores({"a0": 1.0}, 0.5, 100, 1e-6, 0.0)
    assert sorted(p._name(int(i)) for i in nodes) == ["a0", "ea"]
