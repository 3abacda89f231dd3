"""The evidence a synthesis reads, admitted by a token budget and grouped by document.

From the pool's best ``2 x max_evidence`` chunks: near-copies dropped (``retrieval.mmr``:
cosine of the texts above ``near_duplicate`` with a better-ranked chunk, among the chunks the
stored embeddings put close to another), then documents ranked by their
chunks' summed relevance, each giving its best ``evidence_per_document`` chunks while they fit
``evidence_token_budget`` and ``max_evidence`` (``retrieval.packing``). STRATEGIC context keeps
its room: it ranks low on the question's words but is why the graph is asked.

Two orders of the same chunks: ``ranked`` (relevance, for the offline reader, which weighs
rank) and ``reading`` (document groups, best at the start and runner-up at the end, for a
model, which reads the ends of its context best).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from agents.config import AgentSettings
from agents.models import EvidenceBundle, EvidenceItem
from retrieval.embedder import Embedder
from retrieval.mmr import near_duplicates
from retrieval.packing import ends_first, pack_documents

# Chunk id -> its stored embedding (``GraphReadModel.chunk_vectors``).
ChunkVectors = Callable[[Sequence[str]], Mapping[str, Sequence[float]]]

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


def admit(
    ranking: EvidenceBundle,
    cfg: AgentSettings,
    embedder: Embedder | None,
    vectors: ChunkVectors | None = None,
) -> Admitted:
    """``embedder`` tells near-copies by their texts (none: every chunk is kept);
    ``vectors``, the chunks' stored embeddings, picks the ones worth that test (none: all)."""
    window = ranking.items[: 2 * cfg.max_evidence]
    duplicates = _duplicates(window, cfg, embedder, vectors)
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
    window: list[EvidenceItem],
    cfg: AgentSettings,
    embedder: Embedder | None,
    vectors: ChunkVectors | None,
) -> set[str]:
    if embedder is None or cfg.near_duplicate >= 1.0 or len(window) < 2:
        return set()
    suspects = _suspects(window, cfg.near_duplicate_screen, vectors)
    if len(suspects) < 2:
        return set()
    texts = np.asarray(embedder.embed([i.text for i in suspects]), dtype=np.float64)
    return {suspects[n].chunk_id for n in near_duplicates(_unit(texts), cfg.near_duplicate)}


def _suspects(
    window: list[EvidenceItem], screen: float, vectors: ChunkVectors | None
) -> list[EvidenceItem]:
    """The chunks whose stored embedding is at least ``screen`` close to another's, in window
    order, and those the store holds no vector for; every chunk when there is no store to
    ask. A chunk far from all others by its stored vector is no copy of one, nor one's
    original, so leaving it out changes no verdict and saves embedding its text."""
    if vectors is None:
        return window
    stored = vectors([i.chunk_id for i in window])
    held = [n for n, i in enumerate(window) if i.chunk_id in stored]
    near: set[int] = set()
    if len(held) >= 2:
        matrix = _unit(np.asarray([stored[window[n].chunk_id] for n in held], dtype=np.float64))
        close = matrix @ matrix.T >= screen
        np.fill_diagonal(close, False)
        near = {held[n] for n in np.flatnonzero(close.any(axis=1))}
    return [i for n, i in enumerate(window) if n in near or i.chunk_id not in stored]


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)
