"""Name-shifted copies of a corpus, for the scale benchmark (``kg bench scale``).

A copy renames every name-like word (a capitalised word that is not a function word, a month
or a weekday) to an invented word, the same invented word wherever the original occurs in the
copy (titles, texts and the questions asked of it), and another invented word in each other
copy. Everything else (small words, numbers, dates, punctuation) is kept, so a copy's graph
has the shape of the original's (the same mentions, relations and aliases under new names)
and a question about the original, renamed the same way, is answered by the renamed passage.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import Any

# Capitalised words that are not names: they keep their spelling so sentences, dates and the
# extraction rules that key on them read as in the original.
KEEP = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "he",
        "her",
        "his",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "she",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "with",
        "you",
        "your",
        "after",
        "before",
        "during",
        "since",
        "until",
        "about",
        "also",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ]
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_ONSETS = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "tr")
_VOWELS = ("a", "e", "i", "o", "u", "ae", "io")
SALTS_PER_LENGTH = 100


def name_like(word: str) -> bool:
    return word[:1].isupper() and word.lower() not in KEEP


class NameShift:
    """One copy's renaming: deterministic for (``copy``, word), and one-to-one (no two names
    of a copy become one, and no new name is a word of the original vocabulary)."""

    def __init__(self, copy: int, vocabulary: Iterable[str] = ()) -> None:
        if copy < 1:
            raise ValueError("copy numbers start at 1 (0 is the original)")
        self.copy = copy
        self._map: dict[str, str] = {}
        self._taken = {w.lower() for w in vocabulary}

    def word(self, original: str) -> str:
        got = self._map.get(original)
        if got is None:
            got = self._invent(original)
            self._map[original] = got
            self._taken.add(got.lower())
        return got

    def text(self, text: str) -> str:
        return _WORD.sub(lambda m: self.word(m[0]) if name_like(m[0]) else m[0], text)

    def _invent(self, original: str) -> str:
        shortest = max(2, min(4, (len(original) + 2) // 3))
        for salt in range(1000):
            digest = hashlib.blake2b(f"{self.copy}\x1f{salt}\x1f{original}".encode()).digest()
            # Two syllables make 12,544 stems: a corpus of 6,000 passages holds more short
            # names than that, so a name that keeps colliding gets a syllable more every
            # SALTS_PER_LENGTH tries (a name found in fewer keeps the stem it always had).
            syllables = min(8, shortest + salt // SALTS_PER_LENGTH)
            stem = "".join(
                _ONSETS[digest[2 * i] % len(_ONSETS)] + _VOWELS[digest[2 * i + 1] % len(_VOWELS)]
                for i in range(syllables)
            )
            if stem.lower() not in self._taken:
                return stem.upper() if original.isupper() and len(original) > 1 else stem.title()
        raise RuntimeError(f"no free name for {original!r}")  # pragma: no cover


def vocabulary(passages: Sequence[dict[str, Any]]) -> set[str]:
    """Every word of the passages' titles and texts, lower-cased."""
    return {
        m[0].lower()
        for p in passages
        for field in ("title", "text")
        for m in _WORD.finditer(str(p.get(field, "")))
    }


def shifted(passages: Sequence[dict[str, Any]], copy: int) -> list[dict[str, Any]]:
    """Copy ``copy`` (1, 2, ...) of ``passages`` (``{"title", "text"}`` items)."""
    shift = NameShift(copy, vocabulary(passages))
    return [
        {**p, "title": shift.text(str(p.get("title", ""))), "text": shift.text(str(p["text"]))}
        for p in passages
    ]


def scaled(passages: Sequence[dict[str, Any]], factor: int) -> list[dict[str, Any]]:
    """The original followed by ``factor - 1`` shifted copies."""
    if factor < 1:
        raise ValueError("the factor is at least 1")
    out = [dict(p) for p in passages]
    for copy in range(1, factor):
        out += shifted(passages, copy)
    return out
