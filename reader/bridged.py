"""What a chain's bridge carries, when the reader's short answer is the bridge itself.

"How much of the Freedonian debt is held by the country Ann Lee came from?": the poet's page
says she is a Norwegian poet (the bridge: Norway), and the answer sentence says "... held by
foreign banks, the largest being Norway (about $1.2 trillion) then Japan (...)". Read for a
name, the sentence gives Norway: the name the chain went through, not its answer. The answer
is what the sentence attaches to the bridge: "about $1.2 trillion".

A bridge is a name that one of the best sentences about the question's subject adds to the
question (``reader.answer_types.bridges``), met in the answer sentence as itself or as a word
sharing its stem ("Norwegian" / "Norway"). What hangs below it is found on the dependency
parse: walking up from a name of the sentence through noun-phrase links (apposition,
preposition and its object) reaches the bridge.

Tried and not kept (docs/benchmarks.md, session 32): also preferring, over a short answer the
bridge does not reach, a candidate the bridge modifies ("the Norwegian county of Finnmark"
over "Sweden"); it moved no dev answer right and lost held-out ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from reader.answer_facts import coverage
from reader.answer_types import bridges, new_entities
from reader.parse import parsed
from reader.question import QuestionPart
from reader.sentence_rank import Candidate

# Dependency labels that keep a word inside the noun phrase of its head.
_NOUN_PHRASE = frozenset(
    {"pobj", "prep", "appos", "compound", "amod", "nmod", "poss", "nummod", "quantmod"}
)
# How a name hangs below the word it belongs to: "Norway (about $1.2 trillion)", "the county
# of Finnmark".
_HANGING = frozenset({"appos", "npadvmod", "prep", "pobj"})
# Steps walked up from a name: "Norway, home of the Finnmark Fund" is three
# (Fund -> of -> home -> Norway).
_STEPS = 4
# A bridge word and a word of the answer sentence are one name in two forms when they share
# a stem this long: "norw" of "Norway" / "Norwegian".
_STEM = 4


def bridged(
    part: QuestionPart,
    question: str,
    best: Candidate,
    phrase: str | None,
    cands: Sequence[Candidate],
    ranking: np.ndarray,
    subject_sentences: int,
) -> str | None:
    """What ``best`` attaches to the bridge when ``phrase`` (the short answer read so far)
    is the bridge; else None (keep it)."""
    if best.entities is None or phrase is None or subject_sentences <= 0:
        return None
    names = _bridges(part, question, best, cands, ranking, subject_sentences)
    doc = parsed(best.sentence) if names else None
    if doc is None:
        return None
    marks = _mentions(doc, names)
    own = _span(doc, best.sentence, phrase)
    if own is None or not {t.i for t in own} <= marks:
        return None
    bridge = {t.i for t in own}
    names = [t for t, _ in new_entities(best.entities, question)]
    return next((t for t in names if _below(doc, best.sentence, t, bridge)), None)


def _bridges(
    part: QuestionPart,
    question: str,
    best: Candidate,
    cands: Sequence[Candidate],
    ranking: np.ndarray,
    top: int,
) -> list[str]:
    """Names the ``top`` best sentences about the question's subject (one of its names in
    the sentence or its page's title), of other documents than ``best``'s, add."""
    out: list[str] = []
    taken = 0
    for i in np.argsort(-ranking):
        if taken >= top:
            break
        c = cands[int(i)]
        if c.passage.doc_title == best.passage.doc_title:
            continue
        if part.name_words and coverage(part, c.sentence, c.passage.doc_title)[1] <= 0:
            continue
        taken += 1
        out += [b for b in bridges(c.entities or (), question) if b not in out]
    return out


def _mentions(doc: Any, names: Sequence[str]) -> set[int]:
    """Token positions of ``doc`` where a bridge is named, as itself or a one-word bridge in
    another form of its stem."""
    text = doc.text
    marks: set[int] = set()
    for name in names:
        at = text.find(name)
        if at >= 0:
            span = doc.char_span(at, at + len(name), alignment_mode="expand")
            if span is not None:
                marks.update(t.i for t in span)
                continue
        if " " not in name:
            marks.update(t.i for t in doc if _kin(t, name))
    return marks


def _kin(token: Any, name: str) -> bool:
    a, b = token.lower_, name.lower()
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= _STEM and n >= min(len(a), len(b)) - 2 and token.is_alpha


def _span(doc: Any, sentence: str, text: str) -> Any:
    at = sentence.find(text)
    return None if at < 0 else doc.char_span(at, at + len(text), alignment_mode="expand")


def _below(doc: Any, sentence: str, text: str, bridge: set[int]) -> bool:
    """Walking up from the text through noun-phrase links (not as a modifier beside the
    bridge: "the Danish and Norwegian ships") reaches the bridge."""
    span = _span(doc, sentence, text)
    if span is None or {t.i for t in span} & bridge:
        return False
    tok = span.root
    if tok.dep_ in _NOUN_PHRASE - _HANGING:
        return False
    for _ in range(_STEPS + 1):
        if tok.i in bridge:
            return True
        if tok.dep_ not in _NOUN_PHRASE or tok.head.i == tok.i:
            return False
        tok = tok.head
    return False
