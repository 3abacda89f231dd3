"""A question that reaches its subject through a described noun, answered in two steps.

"Who runs the port that Ann Lee founded?" describes the port by a clause
("that Ann Lee founded") instead of naming it; "the composer of Harbour Tales" describes a
person by "of" a name. The parse finds such noun phrases; the inner question ("Which port that
Ann Lee founded") is answered first, from sentences that mention the description's own name
("Ann Lee founded Harrowby Port in 1901" -> Harrowby Port), with a name of the type its noun
asks for; the name then stands in for the phrase ("Who runs Harrowby Port?"),
which the reader answers from sentences that mention it. A nested description ("... of the
city where the composer of X was born") is unwound one at a time, innermost first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from reader.answer_types import candidates as typed_candidates
from reader.answer_types import names_kind, short_answer
from reader.parse import WH, parsed
from reader.question import analyse, thing_labels
from reader.sentence_rank import Candidate, scores
from reader.settings import ReaderSettings
from reader.text import mentions
from retrieval.embedder import Embedder

# The reader's answer to a one-part question from the usable sentences (``reader.extractive``):
# the answering sentence's score and index, and the short answer; None when not found.
Read = Callable[[str, Sequence[bool]], "tuple[float, int, str] | None"]
_DESCRIBING = frozenset({"relcl", "acl"})
_DETERMINERS = frozenset({"the", "a", "an"})
_JOINING = frozenset({"of", "the"})


@dataclass(frozen=True)
class Described:
    """A noun phrase of the question that describes its noun by a clause."""

    phrase: str  # "the port that Ann Lee founded"
    names: tuple[str, ...]  # the clause's proper names, in order: ("Ann Lee",)


@dataclass(frozen=True)
class Step:
    """One unwound description: the name found for it, and the sentence it was read from."""

    name: str
    index: int


@dataclass(frozen=True)
class Composed:
    question: str  # the question with every unwound description replaced by its name
    steps: tuple[Step, ...]
    index: int  # the sentence that answers the rewritten question
    phrase: str


def described(question: str) -> Described | None:
    """The innermost noun phrase described by a clause that names something, or None."""
    found = descriptions(question)
    return found[0] if found else None


def descriptions(question: str) -> list[Described]:
    """The question's noun phrases described by a clause ("the port that Ann Lee founded")
    or by "of" a name ("the composer of Harbour Tales") that names something, innermost
    first. The asked noun itself ("Which port that Ann Lee founded ...", "Who was the first
    chair of X") is the question, not a way to its subject, nor is a noun the sentence says
    something is ("... became a member of the Elm League")."""
    doc = parsed(question)
    if doc is None:
        return []
    found: list[tuple[int, int, list[str]]] = []
    for tok in doc:
        noun = tok.head
        if noun.pos_ != "NOUN" or _asked(noun) or _asks(tok) or noun.dep_ == "attr":
            continue
        if tok.dep_ in _DESCRIBING:
            start = _start(doc, tok, noun)
        elif tok.dep_ == "prep" and tok.lower_ == "of" and not _attribute(noun):
            start = int(noun.left_edge.i)
        else:
            continue
        names = _names(tok)
        if names:
            found.append((start, _end(tok), names))
    found.sort(key=lambda f: f[1] - f[0])
    return [Described(doc[a:b].text, tuple(names)) for a, b, names in found]


def _attribute(noun: Any) -> bool:
    """The noun the question's copula says the interrogative is: "Who was the first chair of
    X"."""
    verb = noun.head
    return (
        noun.dep_ in ("attr", "nsubj")
        and verb.lemma_ == "be"
        and verb.dep_ == "ROOT"
        and any(k.lower_ in WH for k in verb.children)
    )


def _start(doc: Any, clause: Any, noun: Any) -> int:
    """Where the described phrase starts: the noun chunk right before the clause ("the county
    in which X is" even where the parse hangs the clause on "a border with the county"),
    else the noun's own left edge."""
    before = [c for c in doc.noun_chunks if c.end == clause.left_edge.i]
    return before[0].start if before else int(noun.left_edge.i)


def _end(clause: Any) -> int:
    end = int(clause.right_edge.i) + 1
    while end > clause.i + 1 and clause.doc[end - 1].is_punct:
        end -= 1
    return end


def _asks(clause: Any) -> bool:
    """An interrogative inside the clause past its relative word ("a war that X entered
    when"): the clause holds the question, it does not describe a way to its subject."""
    opens = clause.left_edge.i + 1  # "where X was born", "in which X is"
    return any(t.lower_ in WH and t.i > opens for t in clause.subtree)


def _asked(noun: Any) -> bool:
    return any(k.dep_ == "det" and k.tag_ in ("WDT", "WP") for k in noun.children)


def _names(clause: Any) -> list[str]:
    """The runs of proper nouns in the clause, in order, a run going on through "of" and
    "the" ("Bank of the North"): the things it names."""
    runs: list[list[Any]] = []
    for tok in sorted(clause.subtree, key=lambda t: t.i):
        if tok.pos_ != "PROPN":
            continue
        gap = tok.doc[runs[-1][-1].i + 1 : tok.i] if runs else None
        if gap is not None and all(g.lower_ in _JOINING for g in gap):
            runs[-1].append(tok)
        else:
            runs.append([tok])
    return [run[0].doc[run[0].i : run[-1].i + 1].text for run in runs]


def _mentions(c: Candidate, name: str) -> bool:
    term = name.lower()
    return any(mentions(t.lower(), term) for t in (c.sentence, c.passage.doc_title))


def _inner(phrase: str) -> str:
    """The description as a question of its own: "the port that X founded" -> "Which port
    that X founded"."""
    head, _, rest = phrase.partition(" ")
    return f"Which {rest}" if head.lower() in _DETERMINERS else f"Which {phrase}"


def _answer(
    question: str,
    cands: Sequence[Candidate],
    usable: Sequence[bool],
    embedder: Embedder,
    opts: ReaderSettings,
) -> tuple[int, list[str]] | None:
    """The best usable sentence that holds a candidate of the asked type (``_typed``): its
    index and its candidates, the short answer first."""
    parts = analyse(question)
    if len(parts) != 1 or parts[0].kind in ("YESNO", "LIST") or not any(usable):
        return None
    part = parts[0]
    ranked = scores(question, parts, cands, embedder, opts)[0]
    for i in np.argsort(-ranked):
        c = cands[i]
        if not usable[i] or not c.entities:
            continue
        phrase = short_answer(part.kind, c.sentence, c.entities, question)
        if phrase and _typed(part.kind, c, phrase, question):
            others = [t for t in typed_candidates(part.kind, c.entities, question) if t != phrase]
            if names_kind(phrase, question):
                # "Kelton County, Ostland" for "the county where ...": not Ostland.
                others = [t for t in others if names_kind(t, question)]
            return int(i), [phrase, *others]
    return None


def _typed(kind: str, c: Candidate, phrase: str, question: str) -> bool:
    """A description's answer is of the type its noun names: a place for "the city where
    ...", a person for "the author of ...", a name of the noun's own label for "the war
    that ..." (an event); a noun that names no type gives no answer."""
    if kind != "THING":
        return True
    labels = thing_labels(question)
    return any(label in labels and phrase.startswith(t) for t, label in c.entities or ())


def _unwound(
    question: str,
    cands: Sequence[Candidate],
    in_main: Sequence[bool],
    embedder: Embedder,
    opts: ReaderSettings,
) -> tuple[Described, int, list[str]] | None:
    """The innermost description whose own question is answered from the sentences that
    mention its first name: the description, the answering sentence and its candidates."""
    for d in descriptions(question):
        usable = [m and _mentions(c, d.names[0]) for m, c in zip(in_main, cands, strict=True)]
        got = _answer(_inner(d.phrase), cands, usable, embedder, opts)
        if got is not None:
            return d, got[0], got[1]
    return None


@dataclass(frozen=True)
class Walked:
    """What unwinding a question's descriptions came to: the best two-step answer (None when
    no description was unwound or no rewritten question was answered), and the rewritten
    questions of the step where the evidence ran out (to retrieve next)."""

    best: Composed | None
    unanswered: tuple[str, ...]


def walk(
    question: str,
    cands: Sequence[Candidate],
    in_main: Sequence[bool],
    embedder: Embedder,
    opts: ReaderSettings,
    read: Read,
) -> Walked:
    """Unwind the question's descriptions (at most ``opts.compose_steps``) and answer what
    is left from sentences about the name found. A description's sentence may name several
    things of the asked type ("a village in the Varn district of Ostland" for "the country X
    is in"): up to ``opts.compose_names`` are tried, and the one whose rewritten question is
    answered best wins. When none is answered ("Ann Lee founded Harrowby Port", and no
    sentence about Harrowby Port says who runs it), the name's own page is what is missing:
    the rewritten questions ("Who runs Harrowby Port?") are ``unanswered``."""
    asked, steps = question, list[Step]()
    best: Composed | None = None
    for _ in range(opts.compose_steps):
        inner = _unwound(asked, cands, in_main, embedder, opts)
        if inner is None:
            break
        d, where, names = inner
        rewrites = [asked.replace(d.phrase, name, 1) for name in names[: opts.compose_names]]
        tried: list[tuple[float, Composed]] = []
        for name, rewritten in zip(names, rewrites, strict=False):
            about = [
                m and i != where and _mentions(c, name)
                for i, (m, c) in enumerate(zip(in_main, cands, strict=True))
            ]
            got = read(rewritten, about) if any(about) else None
            if got is not None and got[2].lower() != name.lower():
                step = (*steps, Step(name, where))
                tried.append((got[0], Composed(rewritten, step, got[1], got[2])))
        if not tried:
            # The name's own page is missing: what is left to ask about it.
            return Walked(best, tuple(rewrites))
        best = max(tried, key=lambda t: t[0])[1]
        asked, steps = best.question, list(best.steps)
    return Walked(best, ())
