"""Whether a sentence carries the kind of fact a question part asks for.

A sentence "carries" a NUMBER when it states a number the question did not, a DATE when it
names a year, month or century the question did not, a PERSON / PLACE / THING when it names
something (a capitalised name) the question did not. A sentence that only repeats the
question's own names carries nothing new: it shares the question's entities but does not
answer it. Enumerations ("Step one is ...", "First, ...", "2. ...") are recognised so a
LIST answer can keep every item of the list it quotes.
"""

from __future__ import annotations

import re

from reader.question import STOPWORDS, Kind, QuestionPart, content_lemmas, words
from reader.text import NAME_JOINER_WORDS, NAME_JOINERS, YEAR_OR_DECADE, forms, lemma

_NUMBER_WORDS = {
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    "hundred", "thousand", "million", "billion", "dozen", "half", "twice", "double", "triple",
}  # fmt: skip
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
}  # fmt: skip
# A quantity: not an ordinal ("27th", "the 15th pick" count nothing), see ``numbers_in``.
_NUMBER = re.compile(
    r"(?<![\w-])\d[\d,]*+(?:\.\d+)?(?!st\b|nd\b|rd\b|th\b)(?:\s*(?:%|per\s*cent|percent))?"
)
# A day of a month ("25 April 1845", "May 19, 1980"): a date, however many numbers it holds.
_MONTH = "|".join(sorted(_MONTHS))
_DAY = re.compile(rf"\b\d{{1,2}}\s+(?:{_MONTH})\b|\b(?:{_MONTH})\s+\d{{1,2}}\b", re.I)
_CENTURY = re.compile(
    r"\b(\d{1,2}(st|nd|rd|th)|[a-z]+(teenth|tieth|first|second|third))\s+century\b", re.I
)
# "Step one is", "First,", "2.", "(b)", "- item": the head of an enumerated item.
_ITEM_HEAD = re.compile(
    r"^(?:(?P<label>[A-Z][a-z]+)\s+(?P<word>one|two|three|four|five|six|seven|eight|nine|ten)\b"
    r"|(?P<ordinal>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|finally|lastly)\b,?"
    r"|(?P<mark>\(?\d{1,2}[.)]|\(?[a-h]\)|[-•*])\s)",
    re.IGNORECASE,
)


def _question_tokens(question: str) -> set[str]:
    return {lemma(w) for w in words(question)}


def numbers_in(sentence: str) -> list[str]:
    """Quantities the sentence states: numerals that are not years or days of a month, and
    number words, also as the head of a compound ("a three-time regional finalist")."""
    days = [m.span() for m in _DAY.finditer(sentence)]
    found = [
        m.group(0)
        for m in _NUMBER.finditer(sentence)
        if not YEAR_OR_DECADE.fullmatch(m.group(0).strip().rstrip(","))
        and not any(a <= m.start() < b for a, b in days)
    ]
    found += [w for w in words(sentence) if w.lower().split("-")[0] in _NUMBER_WORDS]
    return found


def dates_in(sentence: str) -> list[str]:
    found = [m.group(0) for m in YEAR_OR_DECADE.finditer(sentence)]
    found += [m.group(0) for m in _CENTURY.finditer(sentence)]
    found += [w for w in words(sentence) if w.lower() in _MONTHS and w[:1].isupper()]
    return found


def names_in(sentence: str) -> list[str]:
    """Capitalised spans (names): runs of capitalised words, "of"/"the"/"and" inside allowed.
    The sentence's first word counts only when the next word is capitalised too."""
    toks = words(sentence)
    spans: list[str] = []
    current: list[str] = []
    for i, tok in enumerate(toks):
        cap = tok[:1].isupper()
        if (cap and (i > 0 or (len(toks) > 1 and toks[1][:1].isupper()))) or (
            current and tok.lower() in NAME_JOINERS
        ):
            current.append(tok)
        else:
            if current:
                spans.append(" ".join(current).strip())
            current = []
    if current:
        spans.append(" ".join(current))
    return [re.sub(rf"\s+({NAME_JOINER_WORDS})$", "", s) for s in spans if s]


def _new(items: list[str], asked: set[str]) -> list[str]:
    """Items with a word the question did not use."""
    out = []
    for item in items:
        lemmas = set(content_lemmas(item)) - STOPWORDS
        if lemmas and not lemmas <= asked:
            out.append(item)
    return out


def carries(kind: Kind, sentence: str, question: str) -> bool:
    """The sentence states a fact of ``kind`` that the question does not already contain."""
    asked = _question_tokens(question)
    if kind == "NUMBER":
        # "Step two is ..." numbers an item, it states no quantity; "We will add depots in
        # A, B and C" answers "how many" by its count.
        body = _ITEM_HEAD.sub("", sentence.strip(), count=1)
        return bool(_new(numbers_in(body), asked)) or _names_listed(body, asked)
    if kind == "DATE":
        return bool(_new(dates_in(sentence), asked))
    if kind in ("PERSON", "PLACE"):
        return bool(_new(names_in(sentence), asked))
    if kind == "LIST":
        return item_head(sentence) is not None or sentence.count(",") >= 2
    if kind == "THING":
        return bool(_new(names_in(sentence), asked) or _new(numbers_in(sentence), asked))
    return True  # YESNO: any statement about the entities can settle it


def _names_listed(sentence: str, asked: set[str]) -> bool:
    """Three or more new names in a series "A, B and C"."""
    series = re.search(
        r"(?:[A-Z][\w'’-]*,\s+){2,}|(?:[A-Z][\w'’-]*,\s+)+[A-Z][\w'’-]*,?\s+(?:and|or)\s+[A-Z]",
        sentence,
    )
    if series is None:
        return False
    items = re.findall(r"[A-Z][\w'’-]*", series.group(0))
    return sum(lemma(w) not in asked for w in items) >= 3


def item_head(sentence: str) -> str | None:
    """The enumeration a sentence belongs to: "step" for "Step one is ...",
    "ordinal" for "First, ...", "mark" for "2. ..." / "- ..."; None when not an item."""
    m = _ITEM_HEAD.match(sentence.strip())
    if m is None:
        return None
    if m.group("label"):
        return lemma(m.group("label"))
    if m.group("ordinal"):
        return "ordinal"
    return "mark"


_FUTURE = re.compile(r"\b(will|shall|would|going to|plans? to|aims? to|intends? to)\b", re.I)


def same_time(part: QuestionPart, sentence: str) -> bool:
    """A question about what will happen is answered by a sentence about the future ("we will
    add"), not by one about today ("we run four")."""
    return bool(_FUTURE.search(part.text)) and bool(_FUTURE.search(sentence))


def sentence_lemmas(sentence: str) -> set[str]:
    """The sentence's words in all their ``forms``, a hyphenated word also by its parts: "a
    three-time regional finalist" uses "time"."""
    found = words(sentence)
    parts = [p for x in found if "-" in x for p in x.split("-")]
    return {f for x in (*found, *parts) for f in forms(x)}


def coverage(part: QuestionPart, sentence: str, title: str) -> tuple[float, float]:
    """(share of the part's relation words in the sentence, share of its name words in the
    sentence or its document's title)."""
    own = sentence_lemmas(sentence)
    rel = part.relation_words
    rel_share = sum(w in own for w in rel) / len(rel) if rel else 0.0
    named = own | {lemma(w) for w in words(title)}
    names = part.name_words
    name_share = sum(w in named for w in names) / len(names) if names else 0.0
    return rel_share, name_share
