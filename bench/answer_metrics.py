"""Answer metrics for ``kg bench qa``: SQuAD normalisation, EM, F1, answer recall, calibration.

EM and F1 follow the SQuAD v1.1 evaluation script (lower case, punctuation and the articles
a/an/the removed, whitespace collapsed), taking the best score over the gold answer and its
aliases. Answer recall asks whether a normalised gold answer (or alias) occurs in the
normalised answer as whole tokens, so "10" is not found in "2010" and an extractive answer that
quotes the right sentence counts. Citation markers ``[chunk-id]`` are removed before scoring:
they are pointers, not words of the answer. The answer's lead (first paragraph) is scored
for EM and F1 too, and its length in words is counted: recall is not to be bought by length.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation)
_CITATION = re.compile(r"\[[^\[\]\s]+\]")


def normalize_answer(text: str) -> str:
    """SQuAD v1.1 normalisation."""
    lowered = text.lower()
    no_punct = "".join(ch for ch in lowered if ch not in _PUNCT)
    no_articles = _ARTICLES.sub(" ", no_punct)
    return " ".join(no_articles.split())


def strip_citations(answer: str) -> str:
    return _CITATION.sub(" ", answer)


def exact_match(prediction: str, golds: Sequence[str]) -> float:
    pred = normalize_answer(prediction)
    return float(any(pred == normalize_answer(g) for g in golds))


def _f1(prediction: str, gold: str) -> float:
    pred = normalize_answer(prediction).split()
    ref = normalize_answer(gold).split()
    if not pred or not ref:
        # SQuAD: both empty is a match, one empty is not.
        return float(pred == ref)
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(pred)
    recall = same / len(ref)
    return 2 * precision * recall / (precision + recall)


def f1_score(prediction: str, golds: Sequence[str]) -> float:
    return max((_f1(prediction, g) for g in golds), default=0.0)


def answer_recall(prediction: str, golds: Sequence[str]) -> float:
    """1.0 when some normalised gold answer occurs in the normalised prediction as whole tokens."""
    padded = f" {normalize_answer(prediction)} "
    for gold in golds:
        norm = normalize_answer(gold)
        if norm and f" {norm} " in padded:
            return 1.0
    return 0.0


@dataclass(frozen=True)
class Scored:
    em: float
    f1: float
    recall: float
    # EM and F1 of the answer's lead (its first paragraph): the short answer phrase an
    # offline answer puts before its quotes ("Millbrook, Oregon"); the whole answer when it has
    # one paragraph.
    lead_em: float = 0.0
    lead_f1: float = 0.0
    words: int = 0


def lead(answer: str) -> str:
    """The first paragraph of the answer, citations removed."""
    return strip_citations(answer.strip().split("\n\n", 1)[0])


def score_answer(answer: str, golds: Sequence[str]) -> Scored:
    text = strip_citations(answer)
    first = lead(answer)
    return Scored(
        exact_match(text, golds),
        f1_score(text, golds),
        answer_recall(text, golds),
        exact_match(first, golds),
        f1_score(first, golds),
        len(text.split()),
    )


def calibration(rows: Iterable[tuple[str, float]]) -> dict[str, dict[str, float | int]]:
    """Per confidence level: how many answers, how many right (answer recall), and the share."""
    table: dict[str, dict[str, float | int]] = {}
    for level in ("HIGH", "MEDIUM", "LOW"):
        table[level] = {"count": 0, "right": 0, "accuracy": 0.0}
    for level, right in rows:
        entry = table.setdefault(level, {"count": 0, "right": 0, "accuracy": 0.0})
        entry["count"] = int(entry["count"]) + 1
        entry["right"] = int(entry["right"]) + int(right >= 1.0)
    for entry in table.values():
        count = int(entry["count"])
        entry["accuracy"] = round(int(entry["right"]) / count, 4) if count else 0.0
    return table
