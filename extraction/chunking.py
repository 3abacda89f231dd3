"""Sentence-aware chunking bounded by tokens, with sentence overlap between chunks.

Sentences are extraction's own (``extraction.nlp.split_sentences``: spaCy's sentencizer), so
a chunk never cuts a sentence that extraction reads whole."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from extraction.nlp import split_sentences

TokenCounter = Callable[[str], int]

_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def approx_tokens(text: str) -> int:
    """Word-piece estimate (words and punctuation, long words count extra) for no tokenizer."""
    return sum(1 + len(w) // 8 for w in _WORD.findall(text))


@dataclass(frozen=True)
class TextChunk:
    index: int
    text: str
    tokens: int


def chunk_text(
    text: str, max_tokens: int, overlap_sentences: int = 1, count: TokenCounter = approx_tokens
) -> list[TextChunk]:
    pieces: list[tuple[str, int]] = []
    for sentence in split_sentences(text):
        n = count(sentence)
        if n <= max_tokens:
            pieces.append((sentence, n))
        else:
            pieces.extend(_split_long(sentence, max_tokens, count))
    chunks: list[TextChunk] = []
    current: list[tuple[str, int]] = []
    total = 0
    for piece in pieces:
        if current and total + piece[1] > max_tokens:
            chunks.append(_make(len(chunks), current))
            keep = current[-overlap_sentences:] if overlap_sentences else []
            # Overlap only while it leaves room for the next sentence.
            while keep and sum(n for _, n in keep) + piece[1] > max_tokens:
                keep = keep[1:]
            current, total = list(keep), sum(n for _, n in keep)
        current.append(piece)
        total += piece[1]
    if current:
        chunks.append(_make(len(chunks), current))
    return chunks


def _make(index: int, parts: list[tuple[str, int]]) -> TextChunk:
    return TextChunk(
        index=index, text=" ".join(p for p, _ in parts), tokens=sum(n for _, n in parts)
    )


def _split_long(sentence: str, max_tokens: int, count: TokenCounter) -> list[tuple[str, int]]:
    """Word runs of at most ``max_tokens``. Each distinct word is counted once and a run's
    count is the sum of its words' (word-piece tokenizers split on whitespace first), so the
    cost is linear in the sentence; each run is counted again whole, and halved in the rare
    case a tokenizer joins across spaces and the sum undercounts it."""
    sizes: dict[str, int] = {}
    runs: list[list[str]] = [[]]
    total = 0
    for word in sentence.split():
        n = sizes.get(word)
        if n is None:
            n = sizes[word] = count(word)
        if runs[-1] and total + n > max_tokens:
            runs.append([])
            total = 0
        runs[-1].append(word)
        total += n
    out: list[tuple[str, int]] = []
    for run in runs:
        out.extend(_counted(run, max_tokens, count))
    return out


def _counted(words: list[str], max_tokens: int, count: TokenCounter) -> list[tuple[str, int]]:
    if not words:
        return []
    text = " ".join(words)
    n = count(text)
    if n <= max_tokens or len(words) == 1:
        return [(text, n)]
    half = len(words) // 2
    return [*_counted(words[:half], max_tokens, count), *_counted(words[half:], max_tokens, count)]


__all__ = ["TextChunk", "TokenCounter", "approx_tokens", "chunk_text", "split_sentences"]
