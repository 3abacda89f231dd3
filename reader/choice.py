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
from reader.nouns import compared_role
from reader.question import STOPWORDS, words
from reader.sentence_rank import Candidate
from reader.text import OPTION_SPAN, YEAR, lemma, lifespan, one_family
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
# Comparisons of a life's length, of age, and the words of the events a comparison of time
# reads ("born", "died", "lived"), as lemmas.
_LONG = frozenset({"longer", "longest"})
_SHORT = frozenset({"shorter", "shortest"})
_SPAN = _LONG | _SHORT
_AGE = frozenset({"older", "oldest", "younger", "youngest"})
_EVENTS = {
    "birth": frozenset({"bear", "birth", "born"}),
    "death": frozenset({"die", "death", "dead"}),
    "life": frozenset({"live", "life", "lifespan"}),
}
# The two options at the question's end: "..., A or B?", "... first A or B ?".
_OPTIONS = re.compile(rf"({OPTION_SPAN})\s*,?\s+or\s+({OPTION_SPAN})\s*\??\s*$")


@dataclass(frozen=True)
class Choice:
    option: str  # as the question writes it
    reason: str
    support: list[int]  # candidate indices it was read from, one per option


def options(question: str) -> list[str]:
    """The named options of a choice question, as written ("The Lanterns", "Harbour Echo")."""
    return _split(question)[1]


def _split(question: str) -> tuple[str, list[str]]:
    """(the question before its options, the options); no options when it names none.
    "<question>, A or B?" splits at its first comma, so that titles with lower-case words
    ("Walking in the Fog", "Letters to a Stranger") stay whole; else the names joined by
    "or" at the question's end."""
    text = question.strip()
    head, comma, rest = text.partition(", ")
    named = re.split(r"\s+or\s+", rest.strip().rstrip("?").strip()) if comma else []
    if len(named) == 2 and all(o[:1].isupper() for o in named) and head[:1].isupper():
        return head, [re.sub(r"^the\s+", "", o.strip()) for o in named]
    m = _OPTIONS.search(text)
    if m is None:
        return text, []
    return text[: m.start()], [re.sub(r"^the\s+", "", o.strip()) for o in (m.group(1), m.group(2))]


def _year(sentence: str) -> int | None:
    m = YEAR.search(sentence)
    return int(m.group(1)) if m else None


def _lifespan(sentence: str) -> tuple[int, int] | None:
    """Birth and death years of a biography's "(7 March 1901 – 2 May 1960)"."""
    halves = lifespan(sentence)
    if halves is None:
        return None
    (a, b), (c, d) = halves
    born, died = _year(sentence[a:b]), _year(sentence[c:d])
    return (born, died) if born is not None and died is not None and born <= died else None


def _when(sentence: str, event: str | None) -> int | None:
    """The year of ``event`` ("birth", "death", "life": the years lived) the sentence gives;
    any year it gives for another event. A birth or a death is read from a lifespan, or from
    a sentence using the event's word ("born in 1901")."""
    if event is None:
        return _year(sentence)
    span = _lifespan(sentence)
    if span is not None:
        return {"birth": span[0], "death": span[1]}.get(event, span[1] - span[0])
    if event != "life" and sentence_lemmas(sentence) & _EVENTS[event]:
        return _year(sentence)
    return None


def choose(question: str, cands: Sequence[Candidate], ranking: np.ndarray) -> Choice | None:
    head, named = _split(question)
    if len(named) != 2:
        return None
    said = {w.lower() for w in words(head)}
    # The order words are left out before lemmas are taken: "later" is not "late".
    asked = [
        lemma(w) for w in words(head)[1:] if w.lower() not in STOPWORDS | _EARLY | _LATE | _SPAN
    ]
    event = _event(asked, said)
    subjects = _compared(named, head, event, cands)
    if subjects is None:
        return None
    if event == "life":  # the shorter life is the "earliest" of the years lived
        return _by_time(named, subjects, asked, not said & _LONG, cands, ranking, event)
    order = said & (_EARLY | _LATE)
    if order:
        # "older" is born earlier: the earliest birth year
        when = "birth" if event == "age" else event
        return _by_time(named, subjects, asked, bool(order & _EARLY), cands, ranking, when)
    if said & AMOUNT_COMPARATIVES:
        return None
    return _by_property(named, subjects, asked, cands, ranking)


def _event(asked: list[str], said: set[str]) -> str | None:
    """What a time comparison compares: "birth", "death", "life" (years lived: "lived
    longer"), "age" ("older": born earlier), or None (the year the sentences give)."""
    for event in ("birth", "death"):
        if set(asked) & _EVENTS[event]:
            return event
    if set(asked) & _EVENTS["life"] and said & _SPAN:
        return "life"
    if said & _AGE:
        return "age"
    return None


def _compared(
    named: list[str], head: str, event: str | None, cands: Sequence[Candidate]
) -> list[list[int]] | None:
    """Per option, the sentences its comparison reads: its own, or, when the question
    compares the options by someone of theirs ("the film whose director died first"), that
    person's. None when an option has none."""
    found = subject_sentences(named, cands)
    own = [found.get(subject_key(n), []) for n in named]
    if not all(own):
        return None
    verbs = _EVENTS["birth"] | _EVENTS["death"] | _EVENTS["life"] | {"be"}
    role = compared_role(head, verbs) if event is not None else None
    if role is None:
        return own
    through: list[list[int]] = []
    for sentences in own:
        person = _filler(role, sentences, cands)
        theirs = subject_sentences([person], cands).get(subject_key(person), []) if person else []
        if not theirs:
            return None
        through.append(theirs)
    return through


def _filler(role: str, sentences: list[int], cands: Sequence[Candidate]) -> str | None:
    """The person an option's sentences name in ``role``: the first person named after a
    word of the role's family ("directed by Ann Lee" for the director), first in the
    option's own order."""
    for i in sorted(sentences, key=lambda i: (cands[i].rank, cands[i].position)):
        c = cands[i]
        at = [
            m.start()
            for m in re.finditer(r"[\w'’-]+", c.sentence)
            if one_family(role, lemma(m.group()))
        ]
        if not at:
            continue
        for text, label in c.entities or ():
            if label == "PERSON" and c.sentence.find(text, at[0]) >= 0:
                return text
    return None


def _by_time(
    named: list[str],
    subjects: list[list[int]],
    asked: list[str],
    earliest: bool,
    cands: Sequence[Candidate],
    ranking: np.ndarray,
    event: str | None = None,
) -> Choice | None:
    relation = [w for w in asked if w not in _EARLY | _LATE]
    found: list[tuple[int, int]] = []  # (year, candidate) per option
    for own in subjects:
        dated = [i for i in own if _when(cands[i].sentence, event) is not None]
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
        found.append((_when(cands[top].sentence, event) or 0, top))
    (y0, i0), (y1, i1) = found
    if y0 == y1:
        return None
    pick = 0 if (y0 < y1) == earliest else 1
    if event == "life":
        word = "longer" if not earliest else "shorter"
        reason = f"{named[pick]} has the {word} life ({found[pick][0]} years)"
        return Choice(named[pick], reason, [i0, i1])
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
