"""Similar-name detection for entity resolution: string and name-embedding similarity.

Candidate pairs come from the names' words and embeddings (extraction/name_pairs.py: the
pairs `judge` can accept whose cosine reaches the lowest threshold) and from acronym initials;
each pair is then scored by rapidfuzz on the normalised names. What counts as the same entity
is decided by thresholds from settings.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
from rapidfuzz import fuzz

from core.names import acronym_matches
from extraction.config import ResolutionSettings
from extraction.facts import ACRONYM, CONCEPT, NAME, SUBJECT
from extraction.names import NAME_FUNCTION_WORDS, is_acronym

_NUMBER = re.compile(r"\d+")
WORD_SPELLING = 0.8  # words this alike (rapidfuzz ratio) are one word spelt two ways
# Kinds the rule extractor guesses; two different kinds outside these are a real contradiction.
_COARSE_KINDS = frozenset({ACRONYM, CONCEPT, NAME, SUBJECT})


class Verdict(Enum):
    MERGE = "merge"
    SAME_AS = "same_as"


@dataclass(frozen=True)
class Named:
    key: str  # normalised name
    name: str  # as displayed
    kind: str
    stored: str = ""  # the id of the stored entity it already is, if any


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    score: float
    method: str


def name_similarity(a: str, b: str) -> float:
    return float(fuzz.ratio(a, b)) / 100.0


def judge(a: Named, b: Named, cosine: float, cfg: ResolutionSettings) -> Decision | None:
    """Whether two names are one entity, probably one, or unrelated."""
    if a.key == b.key:
        return Decision(Verdict.MERGE, 1.0, "normalised")
    if _NUMBER.findall(a.key) != _NUMBER.findall(b.key):
        return None  # "2018 World Cup" is not "2019 World Cup", however close the strings
    typed_apart = a.kind != b.kind and not ({a.kind, b.kind} & _COARSE_KINDS)
    ratio = name_similarity(a.key, b.key)
    if _spelled_alike(a.key, b.key):
        score = round((ratio + cosine) / 2, 4)
        if (
            not typed_apart
            and ratio >= cfg.merge_name_similarity
            and cosine >= cfg.merge_embedding_similarity
            and min(len(a.key), len(b.key)) >= cfg.merge_min_chars
        ):
            return Decision(Verdict.MERGE, score, "similarity")
        if ratio >= cfg.same_as_name_similarity and cosine >= cfg.same_as_embedding_similarity:
            return Decision(Verdict.SAME_AS, score, "similarity")
    elif _short_form(a.key, b.key) and cosine >= cfg.same_as_embedding_similarity:
        return Decision(Verdict.SAME_AS, round(cosine, 4), "short_form")
    return None


def _spelled_alike(a: str, b: str) -> bool:
    """Same words but for spelling: every word one name has and the other lacks has a close
    counterpart ("hospital"/"hospitals", "centre"/"center"), so "AWT Priorities" is not
    "BWT Priorities" however similar the whole strings are."""
    only_a = sorted((Counter(a.split()) - Counter(b.split())).elements())
    only_b = sorted((Counter(b.split()) - Counter(a.split())).elements())
    if len(only_a) != len(only_b):
        return False
    return all(any(fuzz.ratio(x, y) >= WORD_SPELLING * 100 for y in only_b) for x in only_a)


def _short_form(a: str, b: str) -> bool:
    """One name is the other without some leading or middle words and with the same last
    word ("Dr Vell" / "Dr Tamsin Vell"); "Chair of X" and "University of X"
    have a different head, and a single word is too ambiguous."""
    short, long = sorted((a.split(), b.split()), key=len)
    if len(short) < 2 or len(short) == len(long) or short[-1] != long[-1]:
        return False
    it = iter(long)
    if not all(w in it for w in short):
        return False
    head = long[: long.index(short[0])] if short[0] in long else []
    return not (head and head[-1] in NAME_FUNCTION_WORDS)


def acronym_pairs(items: Sequence[Named]) -> list[tuple[int, int]]:
    """(acronym, long form) index pairs where the acronym spells exactly one long form."""
    by_initials: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        words = item.name.split()
        if len(words) > 1:
            by_initials["".join(w[0].upper() for w in words if w[0].isupper())].append(i)
    out = []
    for i, item in enumerate(items):
        if item.kind != ACRONYM or not is_acronym(item.name):
            continue
        letters = "".join(c for c in item.name.upper() if c.isalpha())
        found = [
            j for j in by_initials.get(letters, []) if acronym_matches(item.name, items[j].name)
        ]
        if len(found) == 1:
            out.append((i, found[0]))
    return out


def unit_rows(vectors: Sequence[Sequence[float]], dim: int) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), dim)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.asarray(matrix / norms, dtype=np.float32)
