"""The pairs of names resolution compares, found without comparing every name with every name.

`similarity.judge` accepts a pair of different names only in two shapes:

- *spelled alike*: the same number of words, each word of one either in the other or spelt
  close to one of its words ("Colour Centre" / "Color Center");
- *a short form*: every word of the shorter name (two words at least) in the longer, with the
  same last word ("Dr Vell" / "Dr Tamsin Vell").

Either way, any word of one name (in a short form: of the shorter) is in the other name or
spelt close to one of its words. So each name is compared only with the names that hold its
rarest word or a word spelt close to it, and only in those shapes' word counts; the cosine is
taken for those pairs alone. Every pair `judge` can accept is among them, so resolution decides
exactly as it did when it compared all pairs, at a cost that follows the names' words instead of
the square of their number (37,332 names: see docs/benchmarks.md, "Scale").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from rapidfuzz import fuzz, process

from extraction.similarity import WORD_SPELLING

_ROWS = 512  # rows per block, for the words' spellings and for the names' cosines
# "Spelt close" is `similarity.WORD_SPELLING` in `_spelled_alike`; one point lower here makes
# the candidates a superset even where a score's float rounds just under it.
_CLOSE_SCORE = WORD_SPELLING * 100 - 1
# Two words of lengths m <= n can reach a ratio of s only if 2m / (m + n) >= s.
_LENGTH_SPAN = (2.0 - _CLOSE_SCORE / 100.0) / (_CLOSE_SCORE / 100.0)


def similar_name_pairs(
    keys: Sequence[str], vectors: np.ndarray, threshold: float
) -> list[tuple[int, int, float]]:
    """Index pairs (i < j), in order, of the names that may be one entity and whose rows'
    cosine is at least ``threshold`` (rows unit length), with that cosine."""
    words = [key.split() for key in keys]
    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(w, len(vocab)) for w in ws] for ws in words]
    postings: list[list[int]] = [[] for _ in vocab]
    for i, ws in enumerate(ids):
        for w in dict.fromkeys(ws):
            postings[w].append(i)
    close = close_words(list(vocab))
    reach = [sum(len(postings[c]) for c in close[w]) for w in range(len(vocab))]
    counts = np.array([len(ws) for ws in ids], dtype=np.int64)
    lasts = np.array([ws[-1] if ws else -1 for ws in ids], dtype=np.int64)
    groups: dict[int, list[int]] = defaultdict(list)
    for i, ws in enumerate(ids):
        if ws:
            groups[min(ws, key=lambda w: (reach[w], w))].append(i)
    out: list[tuple[int, int, float]] = []
    for w, names in groups.items():
        others = np.unique(np.concatenate([np.asarray(postings[c]) for c in close[w]]))
        by_count: dict[int, list[int]] = defaultdict(list)
        for i in names:
            by_count[int(counts[i])].append(i)
        for count, rows in by_count.items():
            shapes = _Shapes(others, counts, lasts, count)
            for start in range(0, len(rows), _ROWS):
                block = np.asarray(rows[start : start + _ROWS])
                out.extend(shapes.pairs(block, vectors, threshold))
    out.sort()
    return out


class _Shapes:
    """The names a group of names of one word count may pair with, by shape: the same count
    (each pair met from its lower index) or longer with the same last word (a short form, met
    from the shorter name; a single word is no short form)."""

    def __init__(self, others: np.ndarray, counts: np.ndarray, lasts: np.ndarray, count: int):
        self.alike = others[counts[others] == count]
        self.longer = others[counts[others] > count] if count >= 2 else others[:0]
        self.lasts = lasts

    def pairs(
        self, rows: np.ndarray, vectors: np.ndarray, threshold: float
    ) -> list[tuple[int, int, float]]:
        found = _above(rows, self.alike, vectors, threshold, self.alike[None, :] > rows[:, None])
        longer = self.longer[np.isin(self.lasts[self.longer], self.lasts[rows])]
        same_last = self.lasts[rows][:, None] == self.lasts[longer][None, :]
        return found + _above(rows, longer, vectors, threshold, same_last)


def _above(
    rows: np.ndarray, others: np.ndarray, vectors: np.ndarray, threshold: float, keep: np.ndarray
) -> list[tuple[int, int, float]]:
    """(i, j, cosine) for each kept row-other pair at or above the threshold, i < j."""
    if not len(others):
        return []
    cosines = vectors[rows] @ vectors[others].T
    out = []
    for r, c in zip(*np.nonzero((cosines >= threshold) & keep), strict=True):
        i, j = int(rows[r]), int(others[c])
        out.append((min(i, j), max(i, j), float(cosines[r, c])))
    return out


def close_words(vocab: Sequence[str]) -> list[list[int]]:
    """For each word, itself and the words spelt close to it (rapidfuzz ratio at least
    `_CLOSE_SCORE`): "colour" reaches "color", "hospital" reaches "hospitals". Words are
    compared only with the words of a length they can be close to."""
    order = sorted(range(len(vocab)), key=lambda w: (len(vocab[w]), w))
    lengths = np.array([len(vocab[w]) for w in order], dtype=np.float64)
    texts = [vocab[w] for w in order]
    close = [[w] for w in range(len(vocab))]
    for start in range(0, len(order), _ROWS):
        stop = min(start + _ROWS, len(order))
        # the rows are a prefix of the columns, so each pair is met once: column after row
        end = int(np.searchsorted(lengths, _LENGTH_SPAN * lengths[stop - 1], side="right"))
        scores = process.cdist(
            texts[start:stop],
            texts[start:end],
            scorer=fuzz.ratio,
            score_cutoff=_CLOSE_SCORE,
            dtype=np.uint8,  # a quarter of the memory to scan; the cutoff applies before rounding
            workers=-1,
        )
        for r, c in zip(*np.nonzero(scores), strict=True):
            if c > r:
                a, b = order[start + int(r)], order[start + int(c)]
                close[a].append(b)
                close[b].append(a)
    return close
