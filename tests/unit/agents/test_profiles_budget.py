"""Named profiles, and evidence admitted by a token budget grouped by document."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from pydantic import ValidationError

from agents.budget import admit
from agents.config import PROFILES, AgentSettings
from agents.models import EvidenceBundle, EvidenceItem
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from retrieval.mmr import near_duplicates
from retrieval.packing import pack_documents


def test_profiles_set_budgets_and_explicit_settings_win(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = AgentSettings(profile="fast")
    assert fast.max_iterations == 1 and fast.k_per_query == PROFILES["fast"]["k_per_query"]
    thorough = AgentSettings(profile="thorough", k_per_query=7)
    assert thorough.k_per_query == 7 and thorough.max_iterations == 4
    assert AgentSettings(profile="balanced") == AgentSettings(profile="balanced", k_per_query=6)
    with pytest.raises(ValidationError, match="unknown profile"):
        AgentSettings(profile="reckless")
    monkeypatch.setenv("KG_PROFILE", "thorough")
    monkeypatch.setenv("KG_AGENT__MAX_EVIDENCE", "9")
    settings = Settings()
    assert settings.agent.profile == "thorough" and settings.agent.max_iterations == 4
    assert settings.agent.max_evidence == 9


def _item(chunk: str, doc: str, score: float, tokens: int = 100) -> EvidenceItem:
    return EvidenceItem(
        chunk_id=chunk, doc_id=doc, doc_title=doc, text="t", score=score, tokens=tokens
    )


def test_documents_ranked_by_cumulative_relevance_within_the_budget() -> None:
    items = [
        _item("a1", "A", 0.9),  # one strong chunk
        _item("b1", "B", 0.5),
        _item("b2", "B", 0.5),  # two good ones add up to more
        _item("c1", "C", 0.1, tokens=500),
    ]
    groups = pack_documents(
        items, lambda i: i.tokens, lambda i: i.doc_id, lambda i: i.score, budget=350
    )
    assert [[i.chunk_id for i in g] for g in groups] == [["b1", "b2"], ["a1"]]
    capped = pack_documents(
        items, lambda i: i.tokens, lambda i: i.doc_id, lambda i: i.score, 10_000, per_document=1
    )
    assert [[i.chunk_id for i in g] for g in capped] == [["a1"], ["b1"], ["c1"]]


def test_near_duplicates_are_the_later_copies() -> None:
    v = np.asarray([[1.0, 0.0], [0.999, 0.0447], [0.0, 1.0]])
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    assert near_duplicates(v, 0.95) == {1}
    assert near_duplicates(v, 0.9999) == set()


def test_near_copies_are_told_by_their_texts_among_the_chunks_stored_vectors_put_close(
    embedder: SentenceTransformerEmbedder,
) -> None:
    plan = "The trust will open two new wards in the spring and hire forty nurses."
    items = [
        _item("a1", "A", 0.9).model_copy(update={"text": plan}),
        _item("b1", "B", 0.8).model_copy(update={"text": plan.replace("two", "2")}),
        _item("c1", "C", 0.7).model_copy(update={"text": "The river floods every winter."}),
        _item("gone", "D", 0.6).model_copy(update={"text": plan}),
    ]
    # Stored vectors (title and text as ingested): a1 and b1 close, c1 far; "gone" is no
    # longer in the store, so only its text can tell.
    stored = {"a1": [1.0, 0.0], "b1": [0.95, 0.31], "c1": [0.0, 2.0]}
    asked: list[list[str]] = []

    def vectors(ids: Sequence[str]) -> dict[str, list[float]]:
        asked.append(list(ids))
        return {c: v for c, v in stored.items() if c in ids}

    embedded: list[str] = []

    class Counting:
        model_name, dimension = embedder.model_name, embedder.dimension

        def embed(self, texts: Sequence[str]) -> list[list[float]]:
            embedded.extend(texts)
            return embedder.embed(texts)

        def count_tokens(self, text: str) -> int:
            return embedder.count_tokens(text)

    cfg = AgentSettings(max_evidence=10, near_duplicate=0.9)
    got = admit(EvidenceBundle(items=items), cfg, Counting(), vectors)
    assert got.duplicates == ["b1", "gone"]  # the later copies, by their texts
    assert got.ranked.ids() == ["a1", "c1"]
    assert asked == [["a1", "b1", "c1", "gone"]]  # one read for the window
    assert "The river floods every winter." not in embedded  # far from all: never embedded
    # Without the store's vectors every text is compared: the same verdict.
    assert admit(EvidenceBundle(items=items), cfg, embedder).duplicates == ["b1", "gone"]


def test_admitted_evidence_keeps_rank_order_and_a_reading_order_with_strong_ends() -> None:
    items = [
        _item("a1", "A", 0.9),
        _item("b1", "B", 0.8),
        _item("c1", "C", 0.7),
        _item("a2", "A", 0.6),
    ]
    cfg = AgentSettings(max_evidence=10, evidence_token_budget=1_000)
    got = admit(EvidenceBundle(items=items), cfg, None)
    assert got.ranked.ids() == ["a1", "b1", "c1", "a2"]
    # Documents A (1.5), B (0.8), C (0.7): A first, B last, C between.
    assert got.reading.ids() == ["a1", "a2", "c1", "b1"]
    assert got.tokens == 400
    tight = admit(
        EvidenceBundle(items=items), cfg.model_copy(update={"evidence_token_budget": 250}), None
    )
    assert tight.ranked.ids() == ["a1", "a2"]


def test_each_sub_query_s_best_chunk_is_admitted_before_the_budget_packs_the_rest() -> None:
    # The question's own retrieval found a1, a2, b1; a sub-query found the bridge z1, which
    # ranks last in the fused pool (sub-queries weigh less).
    items = [
        _item("a1", "A", 0.9).model_copy(update={"retrieval": {"question": 0.8}}),
        _item("a2", "A", 0.8).model_copy(update={"retrieval": {"question": 0.7}}),
        _item("b1", "B", 0.7).model_copy(update={"retrieval": {"question": 0.6}}),
        _item("z1", "Z", 0.1).model_copy(update={"retrieval": {"sub1": 0.9}}),
    ]
    cfg = AgentSettings(max_evidence=10, evidence_token_budget=250, evidence_subtask_anchors=1)
    got = admit(EvidenceBundle(items=items), cfg, None)
    assert got.ranked.ids() == ["a1", "z1"]  # the best of each, then what fits
    off = admit(
        EvidenceBundle(items=items), cfg.model_copy(update={"evidence_subtask_anchors": 0}), None
    )
    assert off.ranked.ids() == ["a1", "a2"]
