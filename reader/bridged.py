"""The candidate a chain's bridge picks out of an answer sentence that holds several.

"Where is the tern found, in the country the poet Ann Lee came from?": the poet's page says
she was a Norwegian poet (the bridge: Norway), and the tern's page says "it breeds in northern
Sweden and the Norwegian county of Finnmark". Both places are of the asked kind and equally
near the question's words; the bridge modifies one of them ("the Norwegian county of
Finnmark"). And when the reader's short answer is the bridge itself ("... held by foreign
banks, the largest being Norway (about $4 billion)" for "how much is held by the country Ann
Lee came from"), the answer is what the sentence attaches to it, not the name the chain went
through.

A bridge is a name that one of the best sentences about the question's subject adds to the
question (``reader.answer_types.bridges``), met in the answer sentence as itself or as a word
sharing its stem ("Norwegian" / "Norway"). A candidate is tied to it when the dependency parse
links them inside one noun phrase: walking up from the candidate through noun-phrase links
(preposition, object, apposition, modifier) reaches the bridge or a word the bridge modifies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from reader.answer_facts import coverage
from reader.answer_types import bridges, candidates, new_entities
from reader.parse import parsed
from reader.question import QuestionPart
from reader.sentence_rank import Candidate

# Dependency labels that keep a word inside the noun phrase of its head.
_NOUN_PHRASE = frozenset(
    {"pobj", "prep", "appos", "compound", "amod", "nmod", "poss", "nummod", "quantmod"}
)
# How a bridge modifies a word: "the Norwegian county", "Norway's county", "Finnmark,
# Norway" (not "Sweden and Norway": coordination is no modifier).
_MODIFIERS = frozenset({"amod", "compound", "poss", "nmod", "appos", "npadvmod", "prep"})
# How a name hangs below a word it is tied to: "the county of Finnmark", "Norway (about $4
# billion)".
_HANGING = frozenset({"appos", "npadvmod", "prep"})
# Steps walked up from a candidate: "the Norwegian county of Finnmark" is three
# (Finnmark -> of -> county).
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
    """The candidate of ``best`` that a bridge of the chain modifies, when ``phrase`` (the
    short answer read so far) is not one, or is the bridge itself; else None (keep it)."""
    if best.entities is None or subject_sentences <= 0:
        return None
    names = _bridges(part, question, best, cands, ranking, subject_sentences)
    doc = parsed(best.sentence) if names else None
    if doc is None:
        return None
    marks = _mentions(doc, names)
    if not marks:
        return None
    own = _span(doc, best.sentence, phrase) if phrase else None
    if own is not None and {t.i for t in own} <= marks:
        # The short answer is the bridge: what the sentence attaches to it answers.
        below = {t.i for t in own}
        pool = [t for t, _ in new_entities(best.entities, question)]
        return next((t for t in pool if _tied(doc, best.sentence, t, below, modified=False)), None)
    if phrase is not None and (
        _holds(doc, best.sentence, phrase, marks) or _tied(doc, best.sentence, phrase, marks)
    ):
        return None
    pool = candidates(part.kind, best.entities, question)
    tied = [
        t for t in pool
        if not _holds(doc, best.sentence, t, marks) and _tied(doc, best.sentence, t, marks)
    ]  # fmt: skip
    return tied[0] if tied else None


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


def _holds(doc: Any, sentence: str, text: str, marks: set[int]) -> bool:
    """The bridge is part of the name ("Norway House"), not all of it."""
    span = _span(doc, sentence, text)
    inside = {t.i for t in span} if span is not None else set()
    return bool(inside & marks) and not inside <= marks


def _tied(doc: Any, sentence: str, text: str, marks: set[int], *, modified: bool = True) -> bool:
    """Walking up from the text through noun-phrase links reaches a marked word or, when
    ``modified``, a word a marked word modifies."""
    span = _span(doc, sentence, text)
    if span is None or {t.i for t in span} & marks:
        return False
    tok = span.root
    if tok.dep_ in _MODIFIERS - _HANGING:
        return False  # a modifier beside the bridge ("the Danish and Norwegian ships")
    for _ in range(_STEPS + 1):
        if tok.i in marks or (
            modified and any(c.i in marks and c.dep_ in _MODIFIERS for c in tok.children)
        ):
            return True
        if tok.dep_ not in _NOUN_PHRASE or tok.head.i == tok.i:
            return False
        tok = tok.head
    return False
