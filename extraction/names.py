"""Name spans in a tokenised sentence, from capitalisation and a few function-word rules.

A name is a run of capitalised tokens, joined by name-internal function words ("Department for
Health and Social Wellbeing"), hyphens and year-like numbers ("Plan 2026-2031"). Dates are not
names: month and weekday words are recognised from the standard library's calendar names and
read as temporal next to a number or after a preposition. A single capitalised word right after
a sentence boundary is marked weak (resolution keeps it only with evidence from elsewhere), and
a span that may be two names ("Kelby and Easterby", "Chief Executive Sarah Kettering") carries
its candidate splits, which resolution takes when both parts are names on their own elsewhere.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from typing import Any

from core.names import acronym_matches, normalize_name
from extraction.facts import ACRONYM, NAME

# Function words that may sit inside a proper name ("University of X", "Newcastle upon Tyne",
# "Ludwig van Beethoven"). A linguistic closed class, not a vocabulary of names.
NAME_FUNCTION_WORDS = frozenset(
    {"of", "for", "the", "upon", "de", "du", "des", "la", "le", "von", "van", "der", "den", "da"}
)
NAME_CONJUNCTIONS = frozenset({"and", "&"})
ARTICLES = frozenset({"a", "an", "the"})
_TEMPORAL_WORDS = frozenset(
    w.lower()
    for w in [*calendar.month_name, *calendar.month_abbr, *calendar.day_name, *calendar.day_abbr]
    if w
)
_BOUNDARY = frozenset({".", "!", "?", ":", ";", "•", "*", "-", "–", "—", '"', "“", "‘", "'", "("})
_HEADING_END = frozenset({".", ":"})
_JOINERS = frozenset({"-", "–", "/"})
ACRONYM_RE = re.compile(r"^[A-Z][A-Za-z]?[A-Z0-9&]{1,8}s?$")
_YEAR_LIKE = re.compile(r"^(1[0-9]|20)\d\d([-–/]\d{2,4})?$")


@dataclass(frozen=True)
class NameSpan:
    start: int  # token offsets in the spaCy Doc
    end: int
    surface: str
    key: str
    kind: str = NAME
    weak: bool = False
    # Ways to read the span as two names ("A and B", "Chief Executive Jane Smith"), in order of
    # preference; resolution splits it when both parts are names elsewhere.
    splits: tuple[tuple[str, str], ...] = ()


def is_cap(tok: Any) -> bool:
    text: str = tok.text
    return bool(text) and text[0].isupper() and any(c.isalpha() for c in text)


def is_acronym(text: str) -> bool:
    return bool(ACRONYM_RE.match(text))


def is_temporal(doc: Any, i: int) -> bool:
    """A month or weekday word used as a date: next to a number or after a preposition."""
    if doc[i].lower_.rstrip(".") not in _TEMPORAL_WORDS:
        return False
    nxt = doc[i + 1] if i + 1 < len(doc) else None
    prev = doc[i - 1] if i > 0 else None
    if (nxt is not None and nxt.like_num) or (prev is not None and prev.like_num):
        return True
    if prev is None or prev.is_punct:
        return nxt is None or not is_cap(nxt)
    return bool(prev.is_stop and prev.lower_ not in ARTICLES and not is_cap(prev))


def after_boundary(doc: Any, i: int, sent_start: int) -> bool:
    """True at a sentence start, also where the sentencizer missed one ("£2.8m. Mental")."""
    if i <= sent_start:
        return True
    prev = doc[i - 1]
    text: str = prev.text
    return text in _BOUNDARY or (text.endswith(".") and not is_cap(prev))


def find_names(doc: Any, start: int, end: int) -> list[NameSpan]:
    """Name spans of the sentence doc[start:end], in order, without overlaps."""
    out: list[NameSpan] = []
    i = start
    while i < end:
        if not is_cap(doc[i]) or is_temporal(doc, i):
            i += 1
            continue
        j = i + 1
        while j < end and _continues(doc, i, j, end):
            j += 1
        out.extend(_shape(doc, i, j, start))
        i = j
    return _split_lists(doc, out)


def _continues(doc: Any, first: int, j: int, end: int) -> bool:
    tok = doc[j]
    if is_temporal(doc, j):
        return False
    if is_cap(tok):
        return True
    lower = tok.lower_
    nxt = doc[j + 1] if j + 1 < end else None
    if tok.like_num:
        return bool(_YEAR_LIKE.match(tok.text)) or (
            nxt is not None and is_cap(nxt) and not is_temporal(doc, j + 1)
        )
    if j - first == 1 and is_acronym(doc[first].text):
        return False  # an acronym stands alone: "BCC and AWT", "Chair of AWT"
    if lower in _JOINERS:
        return nxt is not None and (is_cap(nxt) or bool(nxt.like_num and doc[j - 1].like_num))
    if lower in NAME_CONJUNCTIONS:
        return _name_word_at(doc, j + 1, end)
    if lower in NAME_FUNCTION_WORDS:
        if j + 1 < end and doc[j + 1].lower_ in ARTICLES:
            return _name_word_at(doc, j + 2, end)
        return _name_word_at(doc, j + 1, end)
    return False


def _name_word_at(doc: Any, k: int, end: int) -> bool:
    """A capitalised, non-date, non-acronym token at k (acronyms are never joined on to)."""
    return k < end and is_cap(doc[k]) and not is_temporal(doc, k) and not is_acronym(doc[k].text)


def _shape(doc: Any, i: int, j: int, sent_start: int) -> list[NameSpan]:
    """Trim a raw run [i, j) to a name; split off a long form that an acronym follows."""
    while i < j and (_is_function_word(doc[i]) or doc[i].lower_ in NAME_FUNCTION_WORDS):
        i += 1
    while j > i and not (is_cap(doc[j - 1]) or doc[j - 1].like_num):
        j -= 1
    if i >= j:
        return []
    acr = _bracketed_acronym(doc, j)
    if acr and not acronym_matches(acr, doc[i:j].text):
        for k in range(i + 1, j):  # the longest proper suffix spelled by the acronym
            if is_cap(doc[k]) and acronym_matches(acr, doc[k:j].text):
                return [*_shape(doc, i, k, sent_start), *_make(doc, k, j, sent_start)]
    return _make(doc, i, j, sent_start)


def _is_function_word(tok: Any) -> bool:
    # "US" and "IT" are stop words only in lower case.
    return bool(tok.is_stop) and not is_acronym(tok.text)


def _bracketed_acronym(doc: Any, j: int) -> str:
    if j + 2 < len(doc) and doc[j].text == "(" and doc[j + 2].text == ")":
        text: str = doc[j + 1].text
        if is_acronym(text):
            return text
    return ""


def _make(doc: Any, i: int, j: int, sent_start: int) -> list[NameSpan]:
    span = doc[i:j]
    surface: str = span.text.strip()
    key = normalize_name(surface)
    if not key or not any(c.isalpha() for c in surface):
        return []
    if j - i == 1:
        tok = doc[i]
        if len(surface) < 2 or _is_function_word(tok) or tok.like_num:
            return []
        if is_acronym(surface):
            return [NameSpan(i, j, surface, key, ACRONYM)]
        initial = after_boundary(doc, i, sent_start)
        if initial and j < len(doc) and doc[j].text in _HEADING_END:
            return []  # a one-word heading: "Purpose. This paper asks ..."
        return [NameSpan(i, j, surface, key, NAME, weak=initial)]
    return [NameSpan(i, j, surface, key, NAME, splits=_splits(doc, i, j))]


def _splits(doc: Any, i: int, j: int) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    conj = [k for k in range(i + 1, j - 1) if doc[k].lower_ in NAME_CONJUNCTIONS]
    if len(conj) == 1:
        out.append((doc[i : conj[0]].text.strip(), doc[conj[0] + 1 : j].text.strip()))
    elif not conj:
        # Two names side by side, each at least two words: a title before a person's name.
        for k in range(i + 2, j - 1):
            if is_cap(doc[k]) and is_cap(doc[k - 1]):
                out.append((doc[i:k].text.strip(), doc[k:j].text.strip()))
    return tuple((a, b) for a, b in out if normalize_name(a) and normalize_name(b))


def _split_lists(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """In a serial list ("Ravensford, Kelby, Thornwick and Easterby") the last "A and B" is two
    items, whatever the words are."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        conj = [k for k in range(span.start, span.end) if doc[k].lower_ in NAME_CONJUNCTIONS]
        listed = (
            len(conj) == 1
            and prev is not None
            and prev.end + 1 == span.start
            and doc[prev.end].text == ","
        )
        if not listed:
            out.append(span)
            continue
        out.extend(_make(doc, span.start, conj[0], -1))
        out.extend(_make(doc, conj[0] + 1, span.end, -1))
    return out
