"""The evidence a synthesis reads, admitted by a token budget and grouped by document.

From the pool's best ``2 x max_evidence`` chunks: near-copies dropped (``retrieval.mmr``:
cosine above ``near_duplicate`` with a better-ranked chunk), then documents ranked by their
chunks' summed relevance, each giving its best ``evidence_per_document`` chunks while they fit
``evidence_token_budget`` and ``max_evidence`` (``retrieval.packing``). STRATEGIC context keeps
its room: it ranks low on the question's words but is why the graph is asked.

Two orders of the same chunks: ``ranked`` (relevance, for the offline reader, which weighs
rank) and ``reading`` (document groups, best at the start and runner-up at the end, for a
model, which reads the ends of its context best).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from agents.config import AgentSettings
from agents.models import EvidenceBundle, EvidenceItem
from retrieval.embedder import Embedder
from retrieval.mmr import near_duplicates
from retrieval.packing import ends_first, pack_documents

# Tokens of a chunk the store did not count: about four tokens per three words (MiniLM's
# word pieces on English prose).
_TOKENS_PER_WORD = 4 / 3


@dataclass(frozen=True)
class Admitted:
    ranked: EvidenceBundle
    reading: EvidenceBundle
    duplicates: list[str] = field(default_factory=list)
    tokens: int = 0


def tokens_of(item: EvidenceItem) -> int:
    return item.tokens or max(1, round(len(item.text.split()) * _TOKENS_PER_WORD))


def admit(ranking: EvidenceBundle, cfg: AgentSettings, embedder: Embedder | None) -> Admitted:
    window = ranking.items[: 2 * cfg.max_evidence]
    duplicates = _duplicates(window, cfg.near_duplicate, embedder)
    window = [i for i in window if i.chunk_id not in duplicates]
    if cfg.evidence_token_budget <= 0:
        chosen = window[: cfg.max_evidence]
    else:
        # Each sub-query's best chunk first: a bridge found by a sub-query ranks low in the
        # fused pool (sub-queries weigh less) and is the first thing a budget would cut.
        anchors = subtask_anchors(ranking.items, duplicates, cfg.evidence_subtask_anchors)
        anchors = anchors[: cfg.max_evidence]
        spent = sum(tokens_of(i) for i in anchors)
        rest = [i for i in window if i not in anchors]
        groups = pack_documents(
            rest,
            tokens_of,
            lambda i: i.doc_id,
            lambda i: i.score,
            max(0, cfg.evidence_token_budget - spent),
            cfg.evidence_per_document,
            cfg.max_evidence - len(anchors),
        )
        chosen = anchors + [i for g in groups for i in g]
    chosen = _with_strategic(ranking.items, chosen, cfg)
    order = {i.chunk_id: n for n, i in enumerate(ranking.items)}
    ranked = sorted(chosen, key=lambda i: order[i.chunk_id])
    return Admitted(
        ranked=EvidenceBundle(items=ranked),
        reading=EvidenceBundle(items=_reading(ranked)),
        duplicates=sorted(duplicates),
        tokens=sum(tokens_of(i) for i in ranked),
    )


def subtask_anchors(
    items: list[EvidenceItem], skip: set[str], per_subtask: int
) -> list[EvidenceItem]:
    """The best ``per_subtask`` chunks of each sub-query (by that sub-query's own retrieval
    score), in pool order; none for ``per_subtask`` 0."""
    if per_subtask <= 0:
        return []
    tasks = {t for i in items for t in i.retrieval}
    picked: set[str] = set()
    for task in sorted(tasks):
        found = [i for i in items if task in i.retrieval and i.chunk_id not in skip]
        found.sort(key=lambda i: -i.retrieval[task])
        picked.update(i.chunk_id for i in found[:per_subtask])
    return [i for i in items if i.chunk_id in picked]


def _with_strategic(
    ranking: list[EvidenceItem], chosen: list[EvidenceItem], cfg: AgentSettings
) -> list[EvidenceItem]:
    strategic = [i for i in ranking if i.tag == "STRATEGIC"][: cfg.extractive_graph_lines]
    extra = [i for i in strategic if i not in chosen]
    if not extra:
        return chosen
    return chosen[: max(0, cfg.max_evidence - len(extra))] + extra


def _reading(ranked: list[EvidenceItem]) -> list[EvidenceItem]:
    groups: dict[str, list[EvidenceItem]] = {}
    for item in ranked:
        groups.setdefault(item.doc_id, []).append(item)
    return [i for g in ends_first(list(groups.values())) for i in g]


def _duplicates(
    window: list[EvidenceItem], threshold: float, embedder: Embedder | None
) -> set[str]:
    if embedder is None or threshold >= 1.0 or len(window) < 2:
        return set()
    vectors = np.asarray(embedder.embed([i.text for i in window]), dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.where(norms > 0, norms, 1.0)
    return {window[n].chunk_id for n in near_duplicates(vectors, threshold)}
