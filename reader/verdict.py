"""A yes/no verdict from the evidence, for questions comparing two or more named things.

Two shapes of English yes/no question are read, never words of a corpus:

- "Are A and B both P?" / "Is A a P like B?": every subject (a named entity of the question
  with evidence of its own) is looked up in its sentences; "yes" when each has a sentence
  using every property word P ("film", "director"), "no" when one has such a sentence and
  another does not (the evidence says it of one but not the other), no verdict otherwise.
- "Are A and B in the same X?": the candidates of X's type (a place for "state", a name for
  "band") in each subject's best sentence; "yes" when they share one, "no" when they share none.

The verdict names the sentences it was read from, which the answer quotes; it is word overlap,
not understanding, and the offline confidence never rates it HIGH.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from reader.answer_types import candidates
from reader.question import STOPWORDS, content_lemmas, kind_of, words
from reader.sentence_rank import Candidate
from reader.text import QUESTION_NAME, lemma, one_family

# Question words that frame the comparison rather than name a property.
_FRAME = frozenset({"both", "also", "same", "each", "either", "like", "too", "well"})
# "The same nationality / country": read from what each subject's own page calls it first.
_NATION = frozenset({"nationality", "country", "citizenship", "nation"})


@dataclass(frozen=True)
class Verdict:
    answer: Literal["Yes", "No"]
    reason: str
    support: list[int]  # candidate indices the verdict was read from, one per subject


def verdict(question: str, cands: Sequence[Candidate], ranking: np.ndarray) -> Verdict | None:
    subjects = _subjects(question, cands)
    if len(subjects) < 2:
        return None
    same = re.search(r"\bsame\s+([a-z]+)", question, re.IGNORECASE)
    if same:
        return _same(question, same.group(1), subjects, cands, ranking)
    return _property(question, subjects, cands, ranking)


def _core(title: str) -> str:
    """A title without its qualifier or article: "The Lanterns (band)" -> "lanterns"."""
    return re.sub(r"^the\s+", "", re.sub(r"\s*\(.*\)$", "", title).strip().lower())


def _subjects(question: str, cands: Sequence[Candidate]) -> dict[str, list[int]]:
    """Each name of the question that has a document of its own -> the sentences about it."""
    names = []
    for m in QUESTION_NAME.finditer(question):
        # The question's first word is its auxiliary, not a name.
        if m.start() == 0 and " " not in m.group(0):
            continue
        names.append(re.sub(r"^(?:Are|Is|Were|Was|Do|Does|Did)\s+", "", m.group(0)))
    return subject_sentences(names, cands)


def subject_key(name: str) -> str:
    """How ``subject_sentences`` keys a name: lower case, without a leading article."""
    return re.sub(r"^the\s+", "", name.lower())


def subject_sentences(names: Sequence[str], cands: Sequence[Candidate]) -> dict[str, list[int]]:
    """Each of ``names`` that has a document of its own (lower case) -> the sentences about
    it: its document's, or others naming it."""
    out: dict[str, list[int]] = {}
    titles = {_core(c.passage.doc_title) for c in cands}
    for given in names:
        name = subject_key(given)
        if not any(t.startswith(name) or (len(t) >= 3 and name.startswith(t)) for t in titles):
            continue
        out[name] = [
            i
            for i, c in enumerate(cands)
            if _core(c.passage.doc_title).startswith(name) or name in c.sentence.lower()
        ]
    return out


def _matches(word: str, sentence: set[str]) -> bool:
    return word in sentence or any(one_family(word, w) for w in sentence)


def _property(
    question: str, subjects: dict[str, list[int]], cands: Sequence[Candidate], ranking: np.ndarray
) -> Verdict | None:
    named = {lemma(w) for s in subjects for w in words(s)}
    asked = content_lemmas(question.split(maxsplit=1)[-1])
    wanted = [w for w in asked if w not in STOPWORDS and w not in _FRAME and w not in named]
    if not wanted:
        return None
    best: list[tuple[float, int]] = []
    for own in subjects.values():

        def share(i: int) -> float:
            c = cands[i]
            toks = {lemma(w) for w in words(f"{c.passage.doc_title} {c.sentence}")}
            return sum(_matches(w, toks) for w in wanted) / len(wanted)

        top = max(own, key=lambda i: (share(i), ranking[i]))
        best.append((share(top), top))
    shares = [s for s, _ in best]
    support = [i for _, i in best]
    said = ", ".join(wanted)
    if min(shares) >= 1.0:
        return Verdict("Yes", f"each compared subject has a sentence saying {said}", support)
    if max(shares) >= 1.0:
        return Verdict("No", f"the evidence says {said} of one subject but not another", support)
    return None


def _same(
    question: str,
    noun: str,
    subjects: dict[str, list[int]],
    cands: Sequence[Candidate],
    ranking: np.ndarray,
) -> Verdict | None:
    if noun.lower() in _NATION:
        nation = _same_nation(subjects, cands)
        if nation is not None:
            return nation
    kind = kind_of(f"Which {noun} is it?")
    found: list[set[str]] = []
    support: list[int] = []
    for own in subjects.values():
        typed = [i for i in own if candidates(kind, cands[i].entities or (), question)]
        if not typed:
            return None
        top = max(typed, key=lambda i: ranking[i])
        found.append({t.lower() for t in candidates(kind, cands[top].entities or (), question)})
        support.append(top)
    # A place or name most of the evidence mentions ("United States") tells nothing apart.
    docs = {c.passage.doc_title for c in cands}
    common = {
        t
        for t in set.union(*found)
        if 2 * len({c.passage.doc_title for c in cands if t in c.sentence.lower()}) >= len(docs)
    }
    shared = set.intersection(*found) - common
    if shared:
        return Verdict("Yes", f"each is in {sorted(shared)[0]} by the evidence", support)
    return Verdict("No", f"the evidence places them in different {noun}s", support)


def _same_nation(subjects: dict[str, list[int]], cands: Sequence[Candidate]) -> Verdict | None:
    """Nationality as a biography states it: the first nationality word (NER's NORP) of the
    subject's own page, earliest sentence first ("Ann Lee (born 1950) is a Welsh poet")."""
    found: list[str] = []
    support: list[int] = []
    for name, own in subjects.items():
        pages = [i for i in own if _core(cands[i].passage.doc_title).startswith(name)]
        stated = [i for i in pages if _nationality(cands[i])]
        if not stated:
            return None
        top = min(stated, key=lambda i: (cands[i].passage.chunk_id, cands[i].position))
        found.append(_nationality(cands[top]))
        support.append(top)
    if len(set(found)) == 1:
        return Verdict("Yes", f"each is {found[0]} by its own page", support)
    return Verdict("No", f"their pages call them {' and '.join(dict.fromkeys(found))}", support)


def _nationality(c: Candidate) -> str:
    return next((t for t, label in c.entities or () if label == "NORP"), "")
