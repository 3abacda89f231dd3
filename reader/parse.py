"""Who does what in a sentence, read from the trained pipeline's dependency parse.

A question names the relation it asks about and the role its answer plays in it: "Who wrote
the novel?" asks for the one who writes (the verb's subject), "Whom did Ann Lee marry?" for
the one married (its object). A sentence states who fills that role: "The novel was written by
Ann Lee" (the agent of a passive), "Ann Lee decided to write a novel about Tom" (the subject of
the verb that "to write" completes) — Tom is what is written about, not who writes.

Only the question and the few sentences the reader already picks are parsed, each text once
(``parsed`` caches it): the tagger and parser read about 30 sentences a second on a loaded
two-core machine, and an answer weighs hundreds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

Role = Literal["agent", "patient", "holder"]

WH = frozenset({"who", "whom", "whose", "what", "which", "when", "where", "how", "why"})
_SUBJECTS = frozenset({"nsubj", "csubj"})
_OBJECTS = frozenset({"dobj", "nsubjpass", "attr", "oprd"})
# Words that complete another verb and take its subject ("decided to write", "went on to
# found"): the subject of the verb they complete is theirs.
_COMPLEMENTS = frozenset({"xcomp", "conj", "advcl"})
# The relative words that stand for the noun their clause describes ("the man who founded").
_RELATIVE = frozenset({"who", "which", "that", "whom"})
ASIDE = re.compile(r"\s*\([^()]*\)")


@dataclass(frozen=True)
class Asked:
    """The relation a question asks about (its verb's lemma) and the answer's role in it;
    for "holder", ``verb`` is the lemma of the noun whose holder is asked ("chair")."""

    verb: str
    role: Role


@lru_cache(maxsize=1)
def _pipeline() -> Any:
    """The trained pipeline without NER (the reader's NER runs on its own), or None when no
    trained pipeline is installed."""
    from extraction.nlp import AUTO, resolve_model

    model = resolve_model(AUTO)
    if not model:
        return None
    import spacy

    return spacy.load(model, exclude=["ner"])


@lru_cache(maxsize=4096)  # the same sentence is weighed for several questions and parts
def parsed(text: str) -> Any:
    """``text`` parsed (a spaCy ``Doc``), or None without a trained pipeline."""
    nlp = _pipeline()
    return None if nlp is None else nlp(text)


def asked(question: str) -> Asked | None:
    """The verb the question's interrogative fills a role of, and which role: "Who wrote X"
    and "X was written by whom" -> (write, agent); "What did X write" -> (write, patient).
    None when the interrogative is no subject, object or agent of a verb ("What is the
    capital of X", "When was X born" ask no one's role)."""
    doc = parsed(question)
    if doc is None:
        return None
    for tok in doc:
        if tok.lower_ not in WH or tok.tag_ not in ("WP", "WDT", "WP$"):
            continue
        # "Which network aired X": the interrogative's noun fills the role.
        word = tok.head if tok.dep_ in ("det", "poss") else tok
        head = word.head
        held = _holder(word, head)
        if held is not None:
            return held
        if word.dep_ == "pobj" and head.dep_ == "agent":
            return _verb(head.head, "agent")
        if word.dep_ in _SUBJECTS:
            return _verb(head, "agent")
        if word.dep_ in ("dobj", "nsubjpass"):
            return _verb(head, "patient")
        return None
    return None


def _holder(word: Any, head: Any) -> Asked | None:
    """ "Who was the founding chair of X?" asks who holds a role a noun names: (chair,
    holder). Only "who" beside a copula whose other side is a common noun ("Who is Ann Lee?"
    asks what she is, not who holds anything)."""
    if word.lower_ not in ("who", "whom") or head.lemma_ != "be":
        return None
    nouns = [
        k
        for k in head.children
        if k.dep_ in ("nsubj", "attr") and k.i != word.i and k.pos_ == "NOUN"
    ]
    return Asked(str(nouns[0].lemma_).lower(), "holder") if nouns else None


def _verb(tok: Any, role: Role) -> Asked | None:
    return Asked(tok.lemma_.lower(), role) if tok.pos_ in ("VERB", "AUX") else None


def role_spans(sentence: str, want: Asked) -> list[tuple[int, int]]:
    """Character spans of what fills ``want``'s role of its verb in ``sentence``: the subject
    or a passive's agent for "agent", the object or a passive's subject for "patient". Empty
    when the sentence does not use the verb."""
    doc = parsed(sentence)
    if doc is None:
        return []
    out: list[tuple[int, int]] = []
    for word in doc:
        for filler in _role_fillers(word, want):
            # The phrase up to its head ("English author Ann Lee"), and the names joined to
            # it ("Ann Lee and Tom Hale"), not the clauses that describe it.
            for tok in (filler, *(c for c in filler.children if c.dep_ == "conj")):
                out.append((tok.left_edge.idx, tok.idx + len(tok)))
    return out


def _role_fillers(word: Any, want: Asked) -> list[Any]:
    """Who fills ``want``'s role at ``word``: the holders of the asked noun, or the fillers of
    the asked verb's role; none where the word is neither."""
    if word.lemma_.lower() != want.verb:
        return []
    if want.role == "holder":
        return _holders(word) if word.pos_ == "NOUN" else []
    return _fillers(word, want.role) if word.pos_ in ("VERB", "AUX") else []


def uses(sentence: str, verb: str) -> bool:
    """Whether ``sentence`` uses ``verb`` as a verb."""
    doc = parsed(sentence)
    return doc is not None and any(
        t.lemma_.lower() == verb and t.pos_ in ("VERB", "AUX") for t in doc
    )


def _fillers(verb: Any, role: Role) -> list[Any]:
    kids = list(verb.children)
    if role == "agent":
        found = [k for k in kids if k.dep_ in _SUBJECTS]
        found += [g for k in kids if k.dep_ == "agent" for g in k.children if g.dep_ == "pobj"]
        if not found and verb.dep_ in _COMPLEMENTS and verb.head is not verb:
            # "Ann Lee decided to write ...": the one who decides writes.
            found = [k for k in verb.head.children if k.dep_ in _SUBJECTS]
    else:
        found = [k for k in kids if k.dep_ in _OBJECTS]
    # "the man who founded it": the relative word stands for the noun its clause describes.
    return [_antecedent(f) for f in found]


def _holders(noun: Any) -> list[Any]:
    """Who ``noun`` says holds its role: "Ann Lee, who was the founding chair of X",
    "the founding chair was Ann Lee", "its chair, Ann Lee," (and the other way round),
    "President Ann Lee"."""
    head = noun.head
    found = [k for k in noun.children if k.dep_ == "appos"]
    if noun.dep_ == "appos" or (noun.dep_ == "compound" and head.pos_ == "PROPN"):
        found.append(head)
    if head.lemma_ == "be" and noun.dep_ in ("attr", "nsubj"):
        other = "nsubj" if noun.dep_ == "attr" else "attr"
        found += [k for k in head.children if k.dep_ == other]
    # "Ann Lee's mother, Jo Lee, was his first wife": the name beside the noun holds it.
    found = [_antecedent(f) for f in found]
    return [_named_by_apposition(f, noun) for f in found]


def _named_by_apposition(word: Any, noun: Any) -> Any:
    """The name set beside a common noun ("his aunt, Jo Lee,") or the word itself."""
    if word.pos_ != "NOUN":
        return word
    return next((k for k in word.children if k.dep_ == "appos" and k.i != noun.i), word)


def _antecedent(word: Any) -> Any:
    """The noun a relative word stands for ("the man who founded it" -> man), else the word."""
    return word.head.head if word.lower_ in _RELATIVE and word.head.dep_ == "relcl" else word
