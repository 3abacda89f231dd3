"""Offline answer: the evidence sentences closest to the question, each with its citation.

Used when no LLM is configured (or the LLM failed); the answer says so plainly. Sentences are
chosen by embedding similarity to the question, preferring better-ranked evidence when close.
Evidence reached through the graph (STRATEGIC) gets its own lines with the path that reached
it, so context the question does not name is still shown and cited.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from extraction.chunking import split_sentences
from retrieval.embedder import Embedder

NO_LLM_NOTE = "No LLM is configured: this answer is extractive, quoted from the cited evidence."


class Passage(Protocol):
    @property
    def chunk_id(self) -> str: ...

    @property
    def doc_title(self) -> str: ...

    @property
    def text(self) -> str: ...


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


@dataclass(frozen=True)
class ExtractiveOptions:
    max_sentences: int = 5
    # Sentences shorter than this are headings or fragments, not statements worth quoting.
    min_words: int = 5
    # Similarity given up per rank step of the evidence: a sentence from the 5th-ranked chunk
    # must be 0.08 closer to the question than one from the top chunk to be chosen first.
    rank_penalty: float = 0.02


def extractive_answer(
    question: str,
    evidence: Sequence[Passage],
    embedder: Embedder,
    max_sentences: int = 5,
    *,
    options: ExtractiveOptions | None = None,
    graph_context: Sequence[tuple[Passage, list[str]]] = (),
    note: str = NO_LLM_NOTE,
) -> ExtractiveAnswer:
    """``graph_context``: (passage, path) pairs reached through the graph; each gets its own
    line with its path, and they are kept out of the main sentences so the path is shown."""
    opts = options or ExtractiveOptions(max_sentences=max_sentences)
    context_ids = {p.chunk_id for p, _ in graph_context}
    main = [h for h in evidence if h.chunk_id not in context_ids] or list(evidence)
    passages = main + [p for p, _ in graph_context if p not in main]
    candidates: list[tuple[str, Passage, int]] = []
    for rank, hit in enumerate(passages):
        for sentence in split_sentences(hit.text):
            if len(sentence.split()) >= opts.min_words:
                candidates.append((sentence, hit, rank))
    if not candidates:
        return ExtractiveAnswer("No evidence was found for this question.", [], note=note)
    vectors = np.asarray(embedder.embed([question, *(c[0] for c in candidates)]))
    sims = vectors[1:] @ vectors[0]
    scores = [
        float(s) - opts.rank_penalty * r for s, (_, _, r) in zip(sims, candidates, strict=True)
    ]
    order = sorted(range(len(candidates)), key=lambda i: -scores[i])
    chosen: list[tuple[str, str]] = []
    seen: set[str] = set()
    main_ids = {h.chunk_id for h in main}
    for i in order:
        sentence, hit, _ = candidates[i]
        if hit.chunk_id in main_ids and sentence not in seen:
            seen.add(sentence)
            chosen.append((sentence, hit.chunk_id))
        if len(chosen) >= opts.max_sentences:
            break
    lines = [" ".join(f"{s} [{cid}]" for s, cid in chosen)]
    titles = {h.chunk_id: h.doc_title for h in passages}
    used = {cid for _, cid in chosen}
    for passage, path in graph_context:
        if passage.chunk_id in used:
            continue
        best = _best_sentence(passage, candidates, scores)
        if best is None:
            continue
        used.add(passage.chunk_id)
        chosen.append((best, passage.chunk_id))
        via = f" (through the graph: {' → '.join(path)})" if path else ""
        lines.append(f"Related{via}: {best} [{passage.chunk_id}]")
    cited = list(dict.fromkeys(cid for _, cid in chosen))
    return ExtractiveAnswer(
        "\n\n".join(lines), chosen, [Citation(c, titles[c]) for c in cited], note=note
    )


def _best_sentence(
    passage: Passage,
    candidates: list[tuple[str, Passage, int]],
    scores: list[float],
) -> str | None:
    own = [i for i, c in enumerate(candidates) if c[1].chunk_id == passage.chunk_id]
    if not own:
        return None
    return candidates[max(own, key=lambda i: scores[i])][0]
