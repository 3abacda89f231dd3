"""Which named option a choice question picks: "Which band was formed first, A or B?".

A choice question ends in two names joined by "or". Each option is looked up in its own
sentences (its document's, or others naming it), as ``reader.verdict`` does for yes/no
questions, and the options are compared by what the question asks, read from English grammar:

- an order in time ("first", "earlier", "oldest"; "later", "youngest", "most recent"): the
  earliest year each option's best sentence gives for the asked relation ("formed", "born";
  a biography's opening sentence when the relation is only "oldest") — the earliest or the
  latest wins;
- anything else ("Which singer is American, A or B?"): the option with a sentence using
  every property word of the question, when the other has none.

Sizes and amounts ("larger", "more people") are not compared: their units differ from
sentence to sentence. No choice is made when the evidence does not settle it. Like a yes/no
verdict it is word overlap, not understanding, and never rated HIGH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from reader.answer_facts import sentence_lemmas
from reader.question import STOPWORDS, words
from reader.sentence_rank import Candidate
from reader.text import OPTION_SPAN, YEAR, lemma
from reader.verdict import subject_key, subject_sentences

_EARLY = frozenset({"first", "earlier", "earliest", "older", "oldest", "before", "sooner"})
_LATE = frozenset(
    {"later", "latest", "younger", "youngest", "last", "newer", "newest", "recent", "recently"}
)
# Comparatives of size or amount: the evidence states them in units that do not compare.
AMOUNT_COMPARATIVES = frozenset({
    "larger", "largest", "bigger", "biggest", "smaller", "smallest", "more", "most", "less",
    "least", "fewer", "fewest", "higher", "highest", "lower", "lowest", "longer", "longest",
    "shorter", "shortest", "taller", "tallest", "greater", "greatest", "heavier", "heaviest",
    "wider", "widest", "deeper", "deepest", "faster", "fastest", "richer", "richest",
})  # fmt: skip
# The two options at the question's end: "..., A or B?", "... first A or B ?".
_OPTIONS = re.compile(rf"({OPTION_SPAN})\s*,?\s+or\s+({OPTION_SPAN})\s*\??\s*$")


@dataclass(frozen=True)
class Choice:
    option: str  # as the question writes it
    reason: str
    support: list[int]  # candidate indices it was read from, one per option


def options(question: str) -> list[str]:
    """The named options of a choice question, as written ("The Exies", "Circus Diablo")."""
    return _split(question)[1]


def _split(question: str) -> tuple[str, list[str]]:
    """(the question before its options, the options); no options when it names none."""
    text = question.strip()
    m = _OPTIONS.search(text)
    if m is None:
        return text, []
    return text[: m.start()], [re.sub(r"^the\s+", "", o.strip()) for o in (m.group(1), m.group(2))]


def _year(sentence: str) -> int | None:
    m = YEAR.search(sentence)
    return int(m.group(1)) if m else None


def choose(question: str, cands: Sequence[Candidate], ranking: np.ndarray) -> Choice | None:
    head, named = _split(question)
    if len(named) != 2:
        return None
    found = subject_sentences(named, cands)
    subjects = [found.get(subject_key(n), []) for n in named]  # per option, in order
    if not all(subjects):
        return None
    asked = [lemma(w) for w in words(head)[1:] if w.lower() not in STOPWORDS]
    said = {w.lower() for w in words(head)}
    order = said & (_EARLY | _LATE)
    if order:
        return _by_time(named, subjects, asked, bool(order & _EARLY), cands, ranking)
    if said & AMOUNT_COMPARATIVES:
        return None
    return _by_property(named, subjects, asked, cands, ranking)


def _by_time(
    named: list[str],
    subjects: list[list[int]],
    asked: list[str],
    earliest: bool,
    cands: Sequence[Candidate],
    ranking: np.ndarray,
) -> Choice | None:
    relation = [w for w in asked if w not in _EARLY | _LATE]
    found: list[tuple[int, int]] = []  # (year, candidate) per option
    for own in subjects:
        dated = [i for i in own if _year(cands[i].sentence) is not None]
        if not dated:
            return None
        # The sentence stating the asked relation ("formed in 1997"); without one, the
        # opening of the option's own page (a biography's birth year).
        using = [
            i for i in dated if relation and set(relation) & sentence_lemmas(cands[i].sentence)
        ]
        top = (
            max(using, key=lambda i: ranking[i])
            if using
            else min(dated, key=lambda i: (cands[i].rank, cands[i].position))
        )
        found.append((_year(cands[top].sentence) or 0, top))
    (y0, i0), (y1, i1) = found
    if y0 == y1:
        return None
    pick = 0 if (y0 < y1) == earliest else 1
    word = "earlier" if earliest else "later"
    return Choice(named[pick], f"{named[pick]} has the {word} year ({found[pick][0]})", [i0, i1])


def _by_property(
    named: list[str],
    subjects: list[list[int]],
    asked: list[str],
    cands: Sequence[Candidate],
    ranking: np.ndarray,
) -> Choice | None:
    if not asked:
        return None
    best: list[tuple[float, int]] = []
    for own in subjects:

        def share(i: int) -> float:
            toks = sentence_lemmas(f"{cands[i].passage.doc_title} {cands[i].sentence}")
            return sum(w in toks for w in asked) / len(asked)

        top = max(own, key=lambda i: (share(i), ranking[i]))
        best.append((share(top), top))
    (s0, i0), (s1, i1) = best
    if max(s0, s1) < 1.0 or min(s0, s1) >= 1.0:
        return None
    pick = 0 if s0 > s1 else 1
    said = ", ".join(asked)
    return Choice(named[pick], f"the evidence says {said} of {named[pick]} only", [i0, i1])
