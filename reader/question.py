"""What a question asks for, read from its grammar: its parts, the kind of answer, its words.

Used by the offline answer to rank evidence sentences by whether they carry the asked-for
fact, and by the offline confidence to say when it was not found. The rules are English
question grammar (interrogatives, the noun after "what"/"which", "and" joining two questions),
never words of a particular corpus or question set.

Kinds: NUMBER ("how many", "how much", "what percentage"), DATE ("when", "what year"),
PERSON ("who"), PLACE ("where", "what city"), LIST (a plural "what are ... ?"), YESNO
("is/are/did ... ?") and THING (anything else: a name or phrase).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from reader.nouns import asked_noun
from reader.parse import parsed
from reader.text import WORD_OR_NUMBER, lemma, verb_lemma

Kind = Literal["NUMBER", "DATE", "PERSON", "PLACE", "LIST", "YESNO", "THING"]

_WH = r"(?:how|what|which|who|whom|whose|when|where|why)"
# A preposition that may lead an interrogative ("in which year", "by how much").
_PREP = r"(?:in|on|at|of|for|from|to|during|by)"
_PREPOSITION = re.compile(rf"^{_PREP}\s+")
# "..., and how many ...": a second question joined to the first.
_SPLIT = re.compile(rf"\s*(?:,\s*)?(?:\band\b|;)\s+(?={_WH}\b)", re.IGNORECASE)
_AUX = re.compile(
    r"^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I
)
_HOW_QUANTITY = re.compile(
    r"^how\s+(many|much|long|old|far|tall|high|big|large|often|deep|wide|heavy)\b", re.I
)
# Nouns that make "what/which <noun>" ask for a kind of value. Generic measure and category
# words of English, not of any corpus.
_DATE_NOUNS = {"year", "date", "day", "month", "century", "decade", "time", "era", "season"}
_NUMBER_NOUNS = {
    "number", "percentage", "percent", "amount", "population", "age", "size", "total",
    "cost", "price", "rate", "share", "proportion", "count", "height", "length", "distance",
    "limit", "threshold", "maximum", "minimum",
}  # fmt: skip
_PLACE_NOUNS = {
    "city", "country", "county", "state", "town", "place", "region", "continent", "island",
    "province", "district", "village", "nation", "location", "capital", "area", "river",
    "mountain", "borough", "neighborhood", "neighbourhood", "territory", "municipality",
    "birthplace", "hometown",
}  # fmt: skip
_PERSON_NOUNS = {
    "person", "man", "woman", "actor", "actress", "singer", "player", "author", "writer",
    "director", "president", "king", "queen", "leader", "founder", "artist", "musician",
    "composer", "politician", "member", "owner", "son", "daughter", "father", "mother",
    "wife", "husband", "brother", "sister", "coach", "producer", "poet", "ruler", "emperor",
}  # fmt: skip
_STOP = {
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or",
    "but", "as", "is", "are", "was", "were", "be", "been", "being", "do", "does", "did", "has",
    "have", "had", "will", "would", "shall", "should", "can", "could", "may", "might", "must",
    "this", "that", "these", "those", "it", "its", "it's", "he", "she", "they", "them", "his",
    "her", "their", "there", "here", "what", "which", "who", "whom", "whose", "when", "where",
    "why", "how", "many", "much", "more", "most", "some", "any", "each", "every", "all",
    "other", "such", "than", "then", "into", "over", "about", "after", "before", "between",
    "during", "under", "up", "down", "out", "off", "also", "not", "no", "yes", "if", "so",
    "own", "same", "both", "either", "neither", "one", "s",
}  # fmt: skip
STOPWORDS = frozenset(_STOP)


@dataclass(frozen=True)
class QuestionPart:
    text: str
    kind: Kind
    # Content words of the part that are not part of a name: the relation asked about
    # ("directed", "born", "recruit"); ``verb_lemma``s.
    relation_words: tuple[str, ...]
    # Words of the names the part mentions (capitalised spans); ``lemma``s.
    name_words: tuple[str, ...]
    # The relation words of the clause that holds the interrogative ("... a show that
    # first aired on which channel" -> first, air, channel): what is asked,
    # as against the words that only describe the way to its subject. Empty: all of them.
    focus_words: tuple[str, ...] = ()


def words(text: str) -> list[str]:
    return WORD_OR_NUMBER.findall(text)


def content_lemmas(text: str) -> list[str]:
    """Lemmas of the words that are not function words, in order, once each. Function words
    are dropped before lemmatising, as some lemmatise into no stopword ("does" -> "doe")."""
    return list(dict.fromkeys(lemma(w) for w in words(text) if w.lower() not in STOPWORDS))


def split_parts(question: str) -> list[str]:
    """The question's parts: "How many X and how many Y?" is two questions, each needing its
    own evidence. A question with one interrogative stays whole."""
    parts = [p.strip(" ?,;") for p in _SPLIT.split(question.strip())]
    return [p for p in parts if len(words(p)) >= 2] or [question.strip(" ?")]


_WH_ANYWHERE = re.compile(
    rf"\b(?:{_PREP}\s+)?(?:how\s+\w+|what|which|whom|whose|who|when|where)\b",
    re.IGNORECASE,
)


def asked_phrase(part: str) -> str:
    """Where the question's interrogative is: its start ("Who directed ...?"), or, for a
    statement ending in one ("... is based where?", "... by what company?"), the last one."""
    text = part.strip()
    # "How to Sail, released in which year, ...": a title that starts with "How to" does not ask.
    starts = re.match(rf"^(?:{_PREP}\s+)?{_WH}\b", text, re.I)
    if starts and not (re.match(r"^how\s+to\b", text, re.I) and _WH_ANYWHERE.search(text, 6)):
        return text
    found = list(_WH_ANYWHERE.finditer(text))
    return text[found[-1].start() :] if found else text


def interrogative_sentence(part: str) -> str:
    """The sentence that asks: "Blue Fen is the second album of a band from Leeds. What
    label released it?" asks in its last sentence, the first only sets the scene.

    Sentences are the trained pipeline's (its parser ends them): a period after an initial or
    a title ("born to Ann B. Lee", "Mr. Grey") ends none, where splitting at every period
    followed by a capital read "Lee was born" as the question and lost what it asked for
    (2 of the 100 dev questions). The split is the fallback without a trained pipeline."""
    text = part.strip()
    doc = parsed(text) if text else None
    if doc is not None:
        sentences = [s.text for s in doc.sents if s.text.strip()]
    else:
        sentences = [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'“])", text) if s]
    return sentences[-1] if sentences else part


# Where a clause that describes another thing begins: a relative word, a comma, "and".
_CLAUSE_BOUNDARY = re.compile(r"\b(?:who|whom|whose|which|that|where|when)\b|,|\band\b", re.I)


def asked_clause(part: str) -> str:
    """For a statement that ends in its interrogative, the clause holding it: from the last
    clause boundary before it ("Ann Lee starred in a series that originally aired on what
    network" -> "originally aired on what network"). A question that starts with
    its interrogative is returned whole: its relation often follows a relative clause ("In
    which year was the woman who started X born?"), which grammar this shallow cannot bound."""
    text = interrogative_sentence(part).strip()
    asked = asked_phrase(text)
    if asked == text:
        return text
    head = text[: len(text) - len(asked)]
    cuts = list(_CLAUSE_BOUNDARY.finditer(head))
    return text[cuts[-1].end() :] if cuts else text


def kind_of(part: str) -> Kind:
    part = interrogative_sentence(part)
    whole = part.strip().lower()
    lowered = asked_phrase(part).lower()
    # "By how much ...", "For how long ...": the preposition does not change what is asked.
    if _HOW_QUANTITY.match(_PREPOSITION.sub("", lowered)):
        return "NUMBER"
    if re.match(r"^(in\s+)?(when|what\s+year|which\s+year)\b", lowered):
        return "DATE"
    if re.match(r"^(who|whom|whose)\b", lowered):
        return "PERSON"
    if re.match(r"^(where|from\s+where)\b", lowered):
        return "PLACE"
    for noun in _asked_nouns(lowered):
        root = lemma(noun)
        if root in _DATE_NOUNS:
            return "DATE"
        if root in _NUMBER_NOUNS:
            return "NUMBER"
        if root in _PLACE_NOUNS:
            return "PLACE"
        if root in _PERSON_NOUNS:
            return "PERSON"
    if re.match(r"^(what|which)\s+(are|were)\b", lowered) or re.match(r"^(list|name)\b", lowered):
        return "LIST"
    if _AUX.match(whole) and " or " not in whole and not re.search(rf"\b{_WH}\b", whole):
        return "YESNO"
    return "THING"


# What "what/which <noun>" asks for when it is a named thing: the OntoNotes labels
# (en_core_web_*'s NER) of names of that kind. Generic English nouns, not a corpus's.
_THING_NOUN_LABELS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("language", "tongue"), frozenset({"LANGUAGE", "NORP"})),
    **dict.fromkeys(("nationality", "ethnicity", "religion"), frozenset({"NORP"})),
    **dict.fromkeys(
        ("film", "movie", "book", "novel", "song", "album", "series", "show", "play",
         "opera", "poem", "painting", "musical", "single", "episode"),
        frozenset({"WORK_OF_ART"}),
    ),
    **dict.fromkeys(
        ("company", "band", "group", "team", "club", "organization", "organisation", "party",
         "network", "station", "channel", "label", "airline", "agency", "university",
         "college", "school", "church", "magazine", "newspaper", "publisher", "firm",
         "corporation", "brand", "league"),
        frozenset({"ORG"}),
    ),
    **dict.fromkeys(
        ("airport", "hotel", "stadium", "bridge", "building", "museum", "venue", "arena"),
        frozenset({"FAC", "ORG"}),
    ),
    **dict.fromkeys(("war", "battle", "event", "festival", "tournament"), frozenset({"EVENT"})),
    **dict.fromkeys(("treaty", "law", "act", "constitution"), frozenset({"LAW"})),
    **dict.fromkeys(("character", "person"), frozenset({"PERSON"})),
}  # fmt: skip


@lru_cache(maxsize=1024)  # asked for every sentence the reader weighs for one question
def asked_lemmas(question: str) -> tuple[str, ...]:
    """The lemma of the noun a "what/which <noun>" question asks for: the parse's
    (``reader.nouns.asked_noun``); without a trained pipeline, the words after the
    interrogative, any of which may be it."""
    sentence = interrogative_sentence(question)
    noun = asked_noun(sentence)
    if noun:
        return (noun,)
    return tuple(lemma(w) for w in _asked_nouns(asked_phrase(sentence).lower()))


def thing_labels(question: str) -> frozenset[str]:
    """The NER labels a "what/which <noun>" question's answer is written with, when its noun
    says ("what language" -> LANGUAGE; "the name of the band" -> ORG); empty when it does not."""
    for n in asked_lemmas(question):
        if n in _THING_NOUN_LABELS:
            return _THING_NOUN_LABELS[n]
    return frozenset()


# A place written "town, state, country" names the smaller first: asked for a state, the
# second of three parts; asked for a country, the last.
_PLACE_LEVEL = {"state": -2, "province": -2, "country": -1, "nation": -1}


def place_level(question: str) -> int | None:
    """Which part of a "town, state, country" place answers the question (a negative index),
    or None when it asks for no state or country."""
    for n in asked_lemmas(question):
        if n in _PLACE_LEVEL:
            return _PLACE_LEVEL[n]
    return None


def _asked_nouns(lowered: str) -> list[str]:
    """The words after "what"/"which" (skipping a preposition before them) up to the first
    function word: the asked noun and the modifiers before it, "in which county ..." ->
    ["county"]; "which stage actress is ..." -> ["stage", "actress"]."""
    m = re.match(
        rf"^{_PREP}?\s*(?:what|which)\s+"
        r"(?:(?:is|was|are|were)\s+(?:the|a|an)\s+)?([a-z][a-z\s'’-]*)",
        lowered,
    )
    if m is None:
        return []
    out: list[str] = []
    for word in m.group(1).split()[:4]:
        if word in STOPWORDS:
            break
        out.append(word)
    return out


# A thing the question names only through another: "the state where the Lindqvist Mill is",
# "the singer born who ...", "the same county as Kelton". Answering it is a chain (find the
# bridge, then ask about it), which offline answers do not check link by link.
_THROUGH_ANOTHER = re.compile(
    r"\b(?:the|a|an)\s+(?:[\w'-]+\s+){0,3}?(?:where|who|whom|whose|which|that)\s+\w"
    r"|\bthe\s+same\s+\w+\s+as\b",
    re.IGNORECASE,
)


def names_through_another(question: str) -> bool:
    """Whether the question describes what it asks about by a relative clause or "the same
    X as Y", rather than naming it."""
    return bool(_THROUGH_ANOTHER.search(question))


def part_queries(question: str) -> list[str]:
    """Each part as a retrieval query that stands alone: a later part saying "it" gets the
    names of the parts before it ("... and how many drivers will it hire")."""
    parts = split_parts(question)
    out: list[str] = []
    for n, part in enumerate(parts):
        own = {lemma(w) for w in words(part)}
        earlier = [
            w for p in parts[:n] for i, w in enumerate(words(p)) if i > 0 and w[:1].isupper()
        ]
        missing = [w for w in dict.fromkeys(earlier) if lemma(w) not in own]
        out.append(f"{part} ({' '.join(missing)})" if missing else part)
    return out


def analyse(question: str) -> list[QuestionPart]:
    out: list[QuestionPart] = []
    for part in split_parts(question):
        names: list[str] = []
        relation: list[str] = []
        for i, w in enumerate(words(part)):
            low = w.lower()
            if low in STOPWORDS:
                continue
            # A capitalised word after the first is part of a name; the first word of a
            # question is capitalised anyway.
            if (i > 0 and w[:1].isupper()) or w[:1].isdigit():
                names.append(lemma(w))
            else:
                relation.append(verb_lemma(w))
        clause = {verb_lemma(w) for w in words(asked_clause(part))}
        focus = [r for r in relation if r in clause]
        out.append(
            QuestionPart(
                text=part,
                kind=kind_of(part),
                relation_words=tuple(dict.fromkeys(relation)),
                name_words=tuple(dict.fromkeys(names)),
                focus_words=tuple(dict.fromkeys(focus)) if len(focus) < len(relation) else (),
            )
        )
    return out
