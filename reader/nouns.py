"""What a sentence says of a noun, read from the trained pipeline's dependency parse: the noun
a question asks for ("What is the main airport of X" -> airport), the figure a sentence gives
it ("a budget of £4.2m"), what "of" completes it with, the name a sentence says is one ("Greyfoss
is a waterfall"), the class it puts a subject in, and the noun whose event a comparison asks
about. The parse is ``reader.parse.parsed``'s (each text once)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from reader.parse import ASIDE, WH, parsed

# Nouns that only introduce the asked one: "the name of the band" asks for a band.
_NAMING = frozenset({"name", "kind", "type", "sort"})


def asked_noun(question: str) -> str | None:
    """The lemma of the noun the question asks for: the interrogative's own ("what language
    were ...", "in what film ..."), for "What is the X ...?" the copula's subject ("the
    main airport"), through "the name of" ("the name of the band" -> band), or the noun "of
    what" completes ("... landed a yearly catch of what?" -> catch). None when the question
    names none or no trained pipeline is installed."""
    doc = parsed(question)
    if doc is None:
        return None
    for tok in doc:
        if tok.lower_ not in ("what", "which") or tok.tag_ not in ("WP", "WDT"):
            continue
        if tok.dep_ == "det" and tok.head.pos_ in ("NOUN", "PROPN"):
            noun = tok.head
        elif tok.dep_ in ("attr", "nsubj") and tok.head.lemma_ == "be":
            subjects = [k for k in tok.head.children if k.dep_ == "nsubj" and k.i != tok.i]
            if not subjects or subjects[0].pos_ != "NOUN":
                return None
            noun = subjects[0]
        elif _completed(tok) is not None:
            noun = _completed(tok)  # "... landed a yearly catch of what?"
        else:
            return None
        return str(_named(noun).lemma_).lower()
    return None


def _named(noun: Any) -> Any:
    """The noun a naming noun introduces: "the name of the band" -> band."""
    if noun.lemma_.lower() not in _NAMING:
        return noun
    for prep in (k for k in noun.children if k.dep_ == "prep" and k.lower_ == "of"):
        for obj in (g for g in prep.children if g.dep_ == "pobj"):
            return obj
    return noun


# Attachments by which a verb describes the noun it hangs from: "the director who died"
# (relative clause), "the director born in 1950" (participle).
_DESCRIBING = frozenset({"relcl", "acl"})


def compared_role(head: str, verbs: frozenset[str]) -> str | None:
    """The noun whose event a comparison asks about, when it is not the compared thing
    itself: "Which film has the director who died first" -> director (the films are compared
    by their directors' deaths); "Which film's composer was born later" -> composer. None
    for "Who died first" or "Which choir was founded first" (the compared things' own event).
    ``verbs``: the lemmas of the events looked for ("die", "bear")."""
    doc = parsed(head)
    if doc is None:
        return None
    asked = asked_noun(head)
    for tok in doc:
        if tok.lemma_.lower() not in verbs:
            continue
        nouns = [tok.head] if tok.dep_ in _DESCRIBING else []
        nouns += [k for k in tok.children if k.dep_ in ("nsubj", "nsubjpass")]
        for noun in nouns:
            lemma = str(noun.lemma_).lower()
            if noun.pos_ == "NOUN" and noun.lower_ not in WH and lemma != asked:
                return lemma
    return None


def _nouns(sentence: str, noun: str) -> Iterator[tuple[Any, Any]]:
    """(parse, token) for each noun of ``sentence`` with the lemma ``noun``; a bracketed
    aside is read past (it breaks the parse of the clause)."""
    doc = parsed(ASIDE.sub("", sentence))
    for tok in doc if doc is not None else ():
        if tok.pos_ == "NOUN" and tok.lemma_.lower() == noun:
            yield doc, tok


def _of_objects(tok: Any) -> list[Any]:
    """The objects of the token's "of": "a budget of £4.2m" -> £4.2m."""
    return [
        g
        for k in tok.children
        if k.dep_ == "prep" and k.lower_ == "of"
        for g in k.children
        if g.dep_ == "pobj"
    ]


def valued(sentence: str, noun: str) -> str | None:
    """The figure ``sentence`` gives the ``noun`` itself, by the parse: "a budget of £4.2m"
    and "the budget is £4.2m" give "£4.2m" for "budget"; "a target of 75% by May" gives
    "75%" for "target" (what hangs from the figure's own words only). A figure is a phrase
    holding a number: "the budget of the museum" gives nothing. None when the sentence gives
    the noun no figure."""
    for doc, tok in _nouns(sentence, noun):
        values = _of_objects(tok)
        if tok.dep_ == "nsubj" and tok.head.lemma_ == "be":
            values += [k for k in tok.head.children if k.dep_ == "attr"]
        for value in values:
            words = _own_words(value)
            if any(w.like_num for w in words):
                span = doc[min(w.i for w in words) : max(w.i for w in words) + 1]
                # "... a budget of £4.2m." ends in the unit's token, full stop included.
                return str(span.text).rstrip(".") if span.end == len(doc) else str(span.text)
    return None


# What hangs from a figure but is not part of it: "75% by May", "£4m, of which ...".
_NOT_THE_FIGURE = frozenset({"prep", "punct", "cc", "conj", "relcl", "acl"})


def _own_words(value: Any) -> list[Any]:
    """``value`` and the words below it, less what hangs from it by ``_NOT_THE_FIGURE``."""
    out = [value]
    for child in value.children:
        if child.dep_ not in _NOT_THE_FIGURE:
            out += _own_words(child)
    return out


def of_what(question: str) -> tuple[str, frozenset[str]] | None:
    """The noun "of what" completes ("... known for his bold depictions of what?" ->
    depiction) and the words the question describes it with (bold). None when the question
    asks no such thing."""
    doc = parsed(question)
    if doc is None:
        return None
    for tok in doc:
        noun = _completed(tok) if tok.lower_ in ("what", "which") else None
        if noun is not None:
            return str(noun.lemma_).lower(), _described(noun)
    return None


def _completed(tok: Any) -> Any | None:
    """The noun the word completes by "of" ("a yearly catch of what" -> catch), if any."""
    head = tok.head
    if tok.dep_ == "pobj" and head.lower_ == "of" and head.head.pos_ == "NOUN":
        return head.head
    return None


def _described(noun: Any) -> frozenset[str]:
    return frozenset(str(k.lemma_).lower() for k in noun.children if k.dep_ in _NOUN_MODIFIERS)


# The words that describe a noun in its phrase: "bold depictions", "harbour depictions".
_NOUN_MODIFIERS = frozenset({"amod", "compound"})


# Nouns that ask for a class when "of" is left without its object: "What is Greyfoss an
# instance of?", "What is Greyfoss a kind of?".
_CLASS = frozenset({"instance", "kind", "type", "sort", "example"})


def asked_class(question: str) -> frozenset[str] | None:
    """The names in the subject whose class the question asks for ("What is the Greyfoss
    an instance of?" -> {greyfoss}): the subject of "be" beside a class noun whose "of" has
    no object. None when the question asks no class of a named subject."""
    doc = parsed(question)
    if doc is None:
        return None
    for tok in doc:
        if tok.lemma_.lower() not in _CLASS:
            continue
        stranded = any(
            k.dep_ == "prep" and k.lower_ == "of" and not any(g.dep_ == "pobj" for g in k.children)
            for k in tok.children
        )
        verb = tok.head if tok.head.lemma_ == "be" else tok.head.head
        subjects = [k for k in verb.children if k.dep_ == "nsubj"] if stranded else []
        names = [w for w in subjects[0].subtree if w.pos_ == "PROPN"] if subjects else []
        if names:
            return frozenset(w.lower_ for w in names)
    return None


def class_of(sentence: str, subject: frozenset[str]) -> str | None:
    """The class ``sentence`` puts the subject in: "Greyfoss is a tall waterfall on the Elm"
    -> waterfall for {greyfoss} (the attribute noun of "be" whose subject is a proper
    name holding one of the subject's words). None when the sentence says no such thing."""
    for _, attr, subj in _copulas(sentence):
        if attr.pos_ == "NOUN" and subject & {w.lower_ for w in subj.subtree}:
            return str(attr.text)
    return None


def _copulas(sentence: str) -> Iterator[tuple[Any, Any, Any]]:
    """(parse, attribute, subject) for each "<proper name> is a <noun>" of ``sentence``; a
    bracketed aside ("Greyfoss (Old Norse: ...)") is read past: it breaks the parse of the
    clause."""
    doc = parsed(ASIDE.sub("", sentence))
    for tok in doc if doc is not None else ():
        if tok.dep_ == "attr" and tok.head.lemma_ == "be":
            for subj in (k for k in tok.head.children if k.dep_ == "nsubj" and k.pos_ == "PROPN"):
                yield doc, tok, subj


def completes(sentence: str, noun: str, described: frozenset[str]) -> str | None:
    """What ``sentence`` says the ``noun`` is of: "known for his bold depictions of harbour
    towns" -> "harbour towns" for depiction, by the parse (the object of the noun's "of",
    with the words below it but what hangs from it by ``_NOT_THE_FIGURE``). When the question
    describes the noun, the sentence must describe it with one of those words too. None
    when the sentence completes no such noun."""
    for doc, tok in _nouns(sentence, noun):
        if described and not described & _described(tok):
            continue
        for obj in _of_objects(tok):
            words = [w for w in _own_words(obj) if not (w.dep_ == "det" and w.i < obj.i)]
            return str(doc[min(w.i for w in words) : max(w.i for w in words) + 1].text)
    return None


def called(sentence: str, noun: str) -> str | None:
    """The name ``sentence`` says is a ``noun``: "Greyfoss is a waterfall on the Elm" is one
    (Greyfoss) for "waterfall", by the parse: the subject of "be" whose attribute has that
    lemma, a proper name of one or more words (``_copulas``). None when the sentence says
    no such thing."""
    for doc, attr, subj in _copulas(sentence):
        if attr.lemma_.lower() != noun:
            continue
        words = [w for w in subj.subtree if w.dep_ in ("compound", "amod") or w.i == subj.i]
        words = [w for w in words if w.pos_ == "PROPN"]
        if words and words[-1].i - words[0].i + 1 == len(words):
            return str(doc[words[0].i : words[-1].i + 1].text)
    return None
