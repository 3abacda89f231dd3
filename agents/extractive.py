"""Offline answer: the evidence sentences closest to the question, each with its citation.

Used when no LLM is configured; the answer says so plainly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from extraction.chunking import split_sentences
from retrieval.embedder import Embedder
from retrieval.search import SearchResult

NO_LLM_NOTE = "No LLM is configured: this answer is extractive, quoted from the cited evidence."


@dataclass(frozen=True)
class Citation:
    chunk_id: str
    document_title: str


@dataclass(frozen=True)
class ExtractiveAnswer:
    answer: str
    sentences: list[tuple[str, str]]  # (sentence, chunk id)
    citations: list[Citation] = field(default_factory=list)
    note: str = NO_LLM_NOTE


def extractive_answer(
    question: str, evidence: list[SearchResult], embedder: Embedder, max_sentences: int = 5
) -> ExtractiveAnswer:
    candidates: list[tuple[str, SearchResult, int]] = []
    for rank, hit in enumerate(evidence):
        for sentence in split_sentences(hit.text):
            if len(sentence.split()) >= 5:
                candidates.append((sentence, hit, rank))
    if not candidates:
        return ExtractiveAnswer("No evidence was found for this question.", [])
    vectors = np.asarray(embedder.embed([question, *(c[0] for c in candidates)]))
    sims = vectors[1:] @ vectors[0]
    # Prefer sentences from better-ranked evidence when similarity is close.
    scores = [float(s) - 0.02 * rank for s, (_, _, rank) in zip(sims, candidates, strict=True)]
    order = sorted(range(len(candidates)), key=lambda i: -scores[i])
    chosen: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i in order:
        sentence, hit, _ = candidates[i]
        if sentence not in seen:
            seen.add(sentence)
            chosen.append((sentence, hit.chunk_id))
        if len(chosen) >= max_sentences:
            break
    titles = {h.chunk_id: h.doc_title for h in evidence}
    cited = list(dict.fromkeys(cid for _, cid in chosen))
    answer = " ".join(f"{s} [{cid}]" for s, cid in chosen)
    return ExtractiveAnswer(answer, chosen, [Citation(c, titles[c]) for c in cited])
