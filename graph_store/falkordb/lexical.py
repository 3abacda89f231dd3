"""BM25 for the FalkorDB store's full-text reads, ranked in this process.

FalkorDB's ``db.idx.fulltext.queryNodes`` scores with RediSearch's default scorer, TF-IDF, and
takes no other: each term's frequency is divided by the document's most frequent term's, and
IDF is ``logb(1 + N / df)`` (an integer). A passage that repeats one common question word
(normalised to 1.0) outranks one that holds the question's rare words once among others, and a
stemmed word counts twice (word and stem). Measured on HotpotQA (994 passages, 100 questions),
this lexical list sank the hybrid preset to R@2 / R@5 0.18 / 0.335 against 0.595 / 0.785 with
Kùzu's BM25 (docs/decisions/embedded-store.md). Kùzu and Neo4j rank full-text hits by Okapi
BM25, so this store does too: one index per graph version over the chunk texts and one over
the alias names, read from the graph when the version moves, each queried with any word of the
question (k1 1.2, b 0.75, Lucene's IDF ``ln(1 + (N - df + 0.5) / (df + 0.5))``, as Kùzu).
Words are lower-cased letters and digits of any script, Lucene's short English stop-word list
dropped, not stemmed.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

from core.bm25 import Bm25Index

K1 = 1.2
B = 0.75
_WORD = re.compile(r"[^\W_]+")
# Lucene's English stop words: words that name no subject.
_STOP = "a an and are as at be but by for if in into is it no not of on or such that the their"
STOP_WORDS = frozenset(f"{_STOP} then there these they this to was will with".split(" "))


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


class Bm25:
    """Okapi BM25 over fixed texts (``core.bm25``) with this store's words and Kùzu's
    ``k1`` / ``b``; ``top`` ranks them for a query's words (any may match)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._index = Bm25Index(texts, words)

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        """The ``k`` best texts with a positive score, best first (ties: text order)."""
        return self._index.top(query, k, K1, B)


class LexicalIndexes:
    """One ``Bm25`` per named read (over the rows' ``text_col``), rebuilt when the graph
    version moves; thread-safe (a reader meanwhile keeps the index it got)."""

    def __init__(self, read: Callable[[str], list[list[Any]]], version: Callable[[], str]):
        self._read = read
        self._version = version
        self._lock = threading.Lock()
        self._built: dict[str, tuple[str, list[list[Any]], Bm25]] = {}

    def get(self, name: str, text_col: int) -> tuple[list[list[Any]], Bm25]:
        version = self._version()
        with self._lock:
            built = self._built.get(name)
            if built is None or built[0] != version:
                rows = self._read(name)
                built = (version, rows, Bm25([str(r[text_col] or "") for r in rows]))
                self._built[name] = built
        return built[1], built[2]
