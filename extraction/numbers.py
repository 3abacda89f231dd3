"""Numbers in text: where they are, what they are worth and in which unit.

A pattern finds each written number with what is attached to it (a currency sign before it, a
scale word such as "million" or "m" and a unit such as "%", "per cent" or "days" after it) and
parses its value: "£48.5m" is 48,500,000 GBP, "12 per cent" is 12 %, "1.2 million" is
1,200,000. spaCy's entities, when a trained pipeline is given, label each number (MONEY,
PERCENT, QUANTITY, CARDINAL, DATE...); without one the label comes from the parsed unit, and a
bare four-digit year ("in 2026") is a DATE. Numbers written in words ("twelve") are read for
the small values a text spells out. ``format_value`` writes a value back the way people read
it: ``£1,234.56``, ``£50,000``, ``12%``, ``30 days``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

Direction = Literal["max", "min", "exact"]

_CURRENCY = {"£": "GBP", "$": "USD", "€": "EUR"}
_SYMBOL = {v: k for k, v in _CURRENCY.items()}
_CURRENCY_WORDS = {"pounds": "GBP", "pound": "GBP", "gbp": "GBP", "dollars": "USD", "euros": "EUR"}
_SCALE = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
}
# Units kept on a value, singular; plural and spelt-out forms map onto them.
_UNITS = {
    "%": "%",
    "per cent": "%",
    "percent": "%",
    "day": "day",
    "week": "week",
    "month": "month",
    "year": "year",
    "hour": "hour",
    "minute": "minute",
    "people": "people",
    "person": "people",
    "bed": "bed",
    "staff": "staff",
}
_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
}
_NUMBER = re.compile(
    r"(?P<cur>[£$€])?\s?"
    r"(?P<num>(?<![\w.,])(?<!\d[-/])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,]\d)"
    r"|(?<![\w.,])(?<!\d[-/])\d+(?:\.\d+)?)"
    r"(?:\s?(?P<scale>thousand|million|billion|bn|mn|m|k|b)\b)?"
    r"(?:\s?(?P<unit>%|per\s?cent\b|(?:day|week|month|year|hour|minute|bed)s?\b|"
    r"people\b|person\b|staff\b|pounds?\b|dollars\b|euros\b|GBP\b))?",
    re.IGNORECASE,
)
_WORD_NUMBER = re.compile(
    r"\b(?P<word>" + "|".join(_WORDS) + r")\s(?P<unit>(?:day|week|month|year)s?)\b", re.I
)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_LABELS = {"MONEY", "PERCENT", "QUANTITY", "CARDINAL", "DATE", "TIME", "ORDINAL"}
# The labels a number read from the text takes from spaCy: a unit read from the text outranks
# the model's guess.
_RELABELLED = frozenset({"CARDINAL", "DATE"})


@dataclass(frozen=True)
class NumberMention:
    text: str  # as written, e.g. "£48.5m"
    value: float
    unit: str  # "GBP", "%", "day", ... or "" for a plain count
    label: str  # MONEY, PERCENT, QUANTITY, CARDINAL, DATE
    start: int  # character offsets in the text read
    end: int

    @property
    def formatted(self) -> str:
        return self.text if self.label == "DATE" else format_value(self.value, self.unit)

    def as_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "value": self.value,
            "unit": self.unit,
            "label": self.label,
            "formatted": self.formatted,
        }


def _unit_of(raw: str | None, currency: str | None) -> str:
    if currency:
        return _CURRENCY[currency]
    if not raw:
        return ""
    word = " ".join(raw.lower().split())
    if word in _CURRENCY_WORDS:
        return _CURRENCY_WORDS[word]
    word = word.replace("percent", "per cent") if word != "percent" else word
    if word in _UNITS:
        return _UNITS[word]
    single = word[:-1] if word.endswith("s") else word
    return _UNITS.get(single, single)


def _label_of(unit: str, text: str) -> str:
    if unit in _SYMBOL or unit == "GBP":
        return "MONEY"
    if unit == "%":
        return "PERCENT"
    if unit:
        return "QUANTITY"
    return "DATE" if _YEAR.match(text) else "CARDINAL"


def parse_amount(text: str) -> NumberMention:
    """The single number in ``text`` ("£1,234.56", "48.5m", "12%"); ValueError otherwise."""
    found = extract_numbers(text)
    if len(found) != 1:
        raise ValueError(f"expected one number in {text!r}, found {len(found)}")
    return found[0]


# An entity spaCy found: (start, end) in characters, and its label.
ValueSpan = tuple[int, int, str]


def extract_numbers(
    text: str, nlp: Any | None = None, spans: Sequence[ValueSpan] | None = None
) -> list[NumberMention]:
    """Every number in ``text`` in order, labelled by ``nlp``'s entities when it has NER, or
    by ``spans`` (``value_spans`` of a parse already made, offsets in ``text``)."""
    found: list[NumberMention] = []
    for m in _NUMBER.finditer(text):
        raw = m.group("num")
        value = float(raw.replace(",", ""))
        scale = m.group("scale")
        if scale:
            value *= _SCALE[scale.lower()]
        unit = _unit_of(m.group("unit"), m.group("cur"))
        start = m.start("cur") if m.group("cur") else m.start("num")
        written = text[start : m.end()].rstrip()
        found.append(NumberMention(written, value, unit, _label_of(unit, raw), start, m.end()))
    for m in _WORD_NUMBER.finditer(text):
        unit = _unit_of(m.group("unit"), None)
        value = float(_WORDS[m.group("word").lower()])
        found.append(NumberMention(m.group(), value, unit, "QUANTITY", m.start(), m.end()))
    found.sort(key=lambda n: n.start)
    if not needs_labels(found):
        return found
    if spans is not None:
        return relabel(found, spans)
    return relabel(found, value_spans(nlp(text))) if nlp is not None else found


def needs_labels(found: Sequence[NumberMention]) -> bool:
    """Whether spaCy's entities can change a label of ``found``: only a bare number's can."""
    return any(n.label in _RELABELLED for n in found)


def value_spans(doc: Any) -> list[ValueSpan]:
    """The entities of a parsed ``doc`` that can label a number."""
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents if e.label_ in _LABELS]


def relabel(found: Sequence[NumberMention], spans: Sequence[ValueSpan]) -> list[NumberMention]:
    """spaCy's entity label where an entity covers the number ("in March 2026" is a DATE)."""
    out = []
    for n in found:
        # The unit read from the text outranks the small model's guess ("3.5 per cent"
        # tagged MONEY); only a bare number takes its label from spaCy.
        label = n.label
        if label in _RELABELLED:
            label = next((lab for s, e, lab in spans if s <= n.start < e), n.label)
        out.append(
            NumberMention(n.text, n.value, n.unit, label, n.start, n.end) if label != n.label else n
        )
    return out


# Words that make a stated number a maximum or a minimum. Checked longest first, so "no less
# than" is a minimum although it contains "less than".
_MIN_WORDS = (
    "no less than",
    "not less than",
    "no fewer than",
    "at least",
    "minimum",
    "or more",
    "or over",
    "or above",
    "more than",
    "over",
    "above",
    "exceed",
    "exceeds",
    "must be over",
    "floor",
)
_MAX_WORDS = (
    "no more than",
    "not more than",
    "must not exceed",
    "must not be more than",
    "cannot exceed",
    "does not exceed",
    "do not exceed",
    "not exceed",
    "up to",
    "at most",
    "maximum",
    "limit",
    "ceiling",
    "cap",
    "capped",
    "or less",
    "or under",
    "less than",
    "under",
    "below",
    "within",
)


def direction_of(words: str) -> Direction:
    """Whether the words stating a limit make it a maximum ("no more than", "up to", "limit")
    or a minimum ("at least", "minimum", "or more"); "exact" when they say neither."""
    text = " " + " ".join(re.findall(r"[a-z]+", words.lower())) + " "
    hits: list[tuple[int, Direction]] = []
    for phrase in _MIN_WORDS:
        if f" {phrase} " in text:
            hits.append((len(phrase), "min"))
    for phrase in _MAX_WORDS:
        if f" {phrase} " in text:
            hits.append((len(phrase), "max"))
    return max(hits)[1] if hits else "exact"


def format_value(value: float, unit: str = "") -> str:
    """``£1,234.56`` (pence only when there are any), ``£386.4m`` (whole tenths of a million
    written as the documents write them), ``12%``, ``30 days``, ``1,500``."""
    whole = abs(value - round(value)) < 0.005
    body = f"{abs(value):,.0f}" if whole else f"{abs(value):,.2f}"
    sign = "-" if value < 0 else ""
    millions = abs(value) / 1_000_000
    if unit in _SYMBOL and millions >= 1 and abs(millions * 10 - round(millions * 10)) < 1e-6:
        short = f"{millions:,.1f}".removesuffix(".0")
        return f"{sign}{_SYMBOL[unit]}{short}m"
    if unit in _SYMBOL:
        return f"{sign}{_SYMBOL[unit]}{body}"
    if unit == "%":
        return f"{sign}{body if whole else f'{abs(value):,.1f}'}%"
    if unit:
        plural = "" if abs(value) == 1 or unit.endswith("s") or unit == "people" else "s"
        if unit == "staff":
            plural = ""
        return f"{sign}{body} {unit}{plural}"
    return f"{sign}{body}"


def same_number(a: float, b: float, tolerance: float = 0.005) -> bool:
    """Equal within half a penny (or the relative ``tolerance`` for large values)."""
    return abs(a - b) <= max(tolerance, abs(b) * 1e-9)


__all__ = [
    "Direction",
    "NumberMention",
    "ValueSpan",
    "direction_of",
    "extract_numbers",
    "format_value",
    "needs_labels",
    "parse_amount",
    "relabel",
    "same_number",
    "value_spans",
]
