"""The evidence an LLM reads: the sentences of each chunk that the offline ranking puts first.

A small model given a dozen whole chunks (about 2,000 tokens) spends most of its time reading
them on a CPU, and answers from whichever sentence shares the question's words. The offline
answer's ranking (``reader.sentence_rank``: relation words weighted by rarity, candidates of
the asked type, the multi-hop bridge) already knows which sentences can answer. The model
reads those, each in its chunk under the chunk's id, with the chunk's first sentence, which
names what "he" or "the film" in the others stands for. Quotes stay verbatim: every kept
sentence is a sentence of its chunk.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from agents.models import EvidenceBundle
from extraction.chunking import split_sentences
from reader.answer_types import Ner
from reader.question import analyse
from reader.sentence_rank import (
    Candidate,
    anchors,
    bridge_bonus,
    scores,
    sentence_candidates,
)
from reader.settings import ReaderSettings
from retrieval.embedder import Embedder


def focused(
    question: str,
    evidence: EvidenceBundle,
    embedder: Embedder,
    keep: int,
    ner: Ner | None = None,
    options: ReaderSettings | None = None,
) -> EvidenceBundle:
    """``evidence`` cut to its ``keep`` best sentences for ``question`` (plus the first
    sentence of each chunk that keeps one), chunks in evidence order, sentences in chunk
    order; chunks with none kept are left out. Unchanged when it has no more than ``keep``."""
    opts = options or ReaderSettings()
    cands = sentence_candidates(evidence.items, opts.min_words, ner)
    if keep <= 0 or len(cands) <= keep:
        return evidence
    kept: dict[str, set[int]] = defaultdict(set)
    for c in _ranked(question, cands, embedder, opts)[:keep]:
        kept[c.passage.chunk_id].add(c.position)
    items = []
    for item in evidence.items:
        positions = kept.get(item.chunk_id)
        if not positions:
            continue
        sentences = split_sentences(item.text)
        text = " ".join(sentences[p] for p in sorted(positions | {0}))
        items.append(item.model_copy(update={"text": text}))
    return EvidenceBundle(items=items)


def _ranked(
    question: str, cands: list[Candidate], embedder: Embedder, opts: ReaderSettings
) -> list[Candidate]:
    """``cands`` best first: the best part score, with the bridge bonus for multi-hop chains."""
    overall = scores(question, analyse(question), cands, embedder, opts).max(axis=0)
    first_hop = anchors(cands, overall, [], opts.anchor_documents)
    ranking = overall + bridge_bonus(cands, first_hop, question, opts.bridge_weight)
    return [cands[int(i)] for i in np.argsort(-ranking)]
