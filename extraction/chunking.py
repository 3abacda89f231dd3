"""Sentence-aware chunking bounded by tokens, with sentence overlap between chunks."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

TokenCounter = Callable[[str], int]

# A sentence ends at . ! ? (optionally followed by a closing quote/bracket) before whitespace
# and an upper-case letter, digit or opening quote; paragraph breaks always end one.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]?\s+(?=[A-Z0-9\"'“‘(\[])")
_PARAGRAPH = re.compile(r"\n\s*\n")
_WORD = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def approx_tokens(text: str) -> int:
    """Word-piece estimate (words and punctuation, long words count extra) for no tokenizer."""
    return sum(1 + len(w) // 8 for w in _WORD.findall(text))


def split_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    for para in _PARAGRAPH.split(text):
        para = " ".join(para.split())
        if para:
            sentences.extend(s.strip() for s in _SENTENCE_END.split(para) if s.strip())
    return sentences


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
    out: list[tuple[str, int]] = []
    words: list[str] = []
    for word in sentence.split():
        candidate = " ".join([*words, word])
        if words and count(candidate) > max_tokens:
            text = " ".join(words)
            out.append((text, count(text)))
            words = [word]
        else:
            words.append(word)
    if words:
        text = " ".join(words)
        out.append((text, count(text)))
    return out
