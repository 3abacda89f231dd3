"""Numeric facts read from chunks at ingest: value, unit, what it measures, about which entity.

"Total debts must not exceed £30,000" becomes value 30000, unit GBP, kind "max" (the words
before the number make it a limit: ``numbers.direction_of``), measure "total debts" (the
clause's content words before the number, without the limit words and the entity's name) and
the entity the sentence names, else the entity its chunk mentions most. Dates and ordinals are
not facts; a bare count is, when something is measured. The facts of a document form its
threshold catalogue entries (kinds "max"/"min") and its amounts (kind "amount").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from extraction.facts import DocFacts
from extraction.nlp import split_sentences
from extraction.numbers import (
    NumberMention,
    ValueSpan,
    direction_of,
    extract_numbers,
    needs_labels,
)
from graph_schema import Alias, Entity, Mention, NumericFact

# Part of the extractor version: a change to what is read marks every document for rebuilding.
NUMERIC_FACTS_VERSION = "2"
_ASCII_DIGIT = re.compile(r"[0-9]")
_PIPE_BATCH = 256  # sentences per spaCy batch, as extraction streams chunks
_FACT_LABELS = {"MONEY", "PERCENT", "QUANTITY", "CARDINAL"}
# A clause ends at these marks: "debts of £2,000, savings of £300" measures each on its own;
# a colon does not ("Total debts: £2,000" names its measure before it).
_CLAUSE = re.compile(r"[;,()\u2013\u2014]|\s-\s")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
MAX_MEASURE_WORDS = 6
_TRAILING = re.compile(r"\s*(?:a|per|each)?\s*(?:\w+\s)?or (?:more|less|over|under|above|below)\b")
_LIMIT_WORDS = frozenset(
    ("exceed", "exceeds", "within", "maximum", "minimum", "limit", "worth", "least", "cannot")
)


@cache
def _filler() -> frozenset[str]:
    """spaCy's English stop words and the words that state a limit say how, not what: a
    measure is the rest ("Total debts must not exceed" -> "total debt"). Imported on first
    use: importing spaCy costs seconds, and commands that never read numbers (``kg --help``,
    ``kg search``) import this module."""
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS) | _LIMIT_WORDS


_KEEP = frozenset({"total", "limit", "maximum", "minimum"})


def measure_words(text: str) -> list[str]:
    """Content words of a phrase, lower case, plural ``s`` dropped ("Total debts" -> total,
    debt): the form measures are stored and compared in."""
    out = []
    filler = _filler()
    for w in _WORD.findall(re.sub(r"['’]s?\b", "", text.lower())):
        if w in filler and w not in _KEEP:
            continue
        plural = len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is"))
        out.append(w[:-1] if plural else w)
    return out


def _measure(before: str, names: Sequence[str]) -> str:
    clause = _CLAUSE.split(before)[-1]
    for name in names:
        clause = re.sub(re.escape(name), " ", clause, flags=re.I)
    words = [w for w in measure_words(clause) if w not in {"limit", "maximum", "minimum"}]
    return " ".join(words[-MAX_MEASURE_WORDS:])


def _about(
    sentence: str, chunk_entities: list[str], names: dict[str, list[str]]
) -> tuple[str, list[str]]:
    """The entity the sentence names first (the subject, in "X owes £1,840 to Y"), the longer
    name at the same place; else none."""
    best, place, length = "", len(sentence) + 1, 0
    for entity_id in chunk_entities:
        for name in names.get(entity_id, []):
            # As written: a name is a proper noun, and "debts" is no mention of "Debts".
            hit = re.search(rf"\b{re.escape(name)}\b", sentence)
            if hit and (hit.start(), -len(name)) < (place, -length):
                best, place, length = entity_id, hit.start(), len(name)
    if not best:
        return "", []
    return best, [n for n in names[best] if n in sentence]


@dataclass(frozen=True)
class FactSource:
    """One document's chunks ``(chunk id, text)`` and what resolution made of them."""

    doc_id: str
    chunks: Sequence[tuple[str, str]]
    entities: Sequence[Entity]
    aliases: Sequence[Alias]
    mentions: Sequence[Mention]
    # Per chunk, in order: the value entities the extraction's NER found in it (offsets in
    # the chunk's text), or None where it ran none. Empty: none for any chunk.
    values: Sequence[Sequence[ValueSpan] | None] = ()


def chunk_facts(
    doc_id: str,
    chunks: Sequence[tuple[str, str]],
    entities: Sequence[Entity],
    aliases: Sequence[Alias],
    mentions: Sequence[Mention],
    nlp: Any | None = None,
) -> list[NumericFact]:
    """The numeric facts of one document's chunks ``(chunk id, text)``."""
    return chunk_facts_many([FactSource(doc_id, chunks, entities, aliases, mentions)], nlp)[0]


def chunk_values(facts: DocFacts, model: str) -> list[list[ValueSpan] | None]:
    """A document's chunks' value entities (``FactSource.values``), given only when the
    pipeline numeric facts would run (``model``) is the one whose NER found them."""
    if not model or facts.ner_model != model:
        return []
    return [c.values for c in facts.chunks]


def chunk_facts_many(docs: Sequence[FactSource], nlp: Any | None = None) -> list[list[NumericFact]]:
    """The numeric facts of many documents. A chunk the extraction's NER read gives its
    sentences' numbers their labels from that reading (``FactSource.values``); ``nlp`` runs
    once over the other sentences whose numbers it can relabel (one ``nlp.pipe`` stream, each
    distinct sentence once): this second NER pass cost 2.1 of an ingest's 19.4 s (400 MuSiQue
    passages, where extraction's own NER took 5.3)."""
    split = [_split(d) for d in docs]
    wanted = {
        s.text: None
        for chunks in split
        for _, sentences in chunks
        for s in sentences
        if s.spans is None and _has_digit(s.text) and needs_labels(extract_numbers(s.text))
    }
    parsed = _Parsed(nlp, list(wanted)) if nlp is not None and wanted else None
    return [_doc_facts(d, chunks, parsed) for d, chunks in zip(docs, split, strict=True)]


@dataclass(frozen=True)
class _Sentence:
    text: str
    # The chunk's value entities shifted to this sentence's offsets; None: parse it alone.
    spans: list[ValueSpan] | None


def _split(doc: FactSource) -> list[tuple[str, list[_Sentence]]]:
    """Each chunk's sentences, with the extraction's value entities where it has them. A
    sentence is found in its chunk's text as written (chunks are sentences joined by a
    space); one that is not (whitespace the split collapsed) is parsed on its own."""
    out = []
    for i, (cid, text) in enumerate(doc.chunks):
        values = doc.values[i] if i < len(doc.values) else None
        sentences, at = [], 0
        for sentence in split_sentences(text):
            start = text.find(sentence, at) if values is not None else -1
            if values is None or start < 0:
                sentences.append(_Sentence(sentence, None))
                continue
            end = start + len(sentence)
            at = end
            shifted = [(s - start, e - start, lab) for s, e, lab in values if s < end and e > start]
            sentences.append(_Sentence(sentence, shifted))
        out.append((cid, sentences))
    return out


def _has_digit(sentence: str) -> bool:
    """``str.isdigit`` of any character: one regex search for ASCII text (most of it),
    instead of a Python-level walk over every character."""
    if sentence.isascii():
        return _ASCII_DIGIT.search(sentence) is not None
    return any(ch.isdigit() for ch in sentence)


class _Parsed:
    """``nlp`` called on a sentence, answered from one batched stream where it was given."""

    def __init__(self, nlp: Any, sentences: list[str]) -> None:
        self._nlp = nlp
        self._docs = dict(zip(sentences, nlp.pipe(sentences, batch_size=_PIPE_BATCH), strict=True))

    def __call__(self, text: str) -> Any:
        doc = self._docs.get(text)
        return doc if doc is not None else self._nlp(text)


def _doc_facts(
    doc: FactSource, split: list[tuple[str, list[_Sentence]]], nlp: _Parsed | None
) -> list[NumericFact]:
    doc_id = doc.doc_id
    label = {e.id: e.name for e in doc.entities}
    names: dict[str, list[str]] = {e.id: [e.name] for e in doc.entities}
    for a in doc.aliases:
        if a.name not in names.setdefault(a.entity_id, []):
            names[a.entity_id].append(a.name)
    by_chunk: dict[str, Counter[str]] = {}
    for m in doc.mentions:
        by_chunk.setdefault(m.chunk_id, Counter())[m.entity_id] += m.count
    facts: list[NumericFact] = []
    # A sentence naming no entity is about the document's most-mentioned one.
    whole: Counter[str] = Counter()
    for counts in by_chunk.values():
        whole.update(counts)
    main = whole.most_common(1)[0][0] if whole else ""
    seen: set[tuple[str, float]] = set()  # chunks overlap by a sentence: each fact once
    for chunk_id, sentences in split:
        ranked = [e for e, _ in by_chunk.get(chunk_id, Counter()).most_common()]
        n = 0
        for parsed in sentences:
            sentence = parsed.text
            if not _has_digit(sentence):
                continue
            entity_id, said = _about(sentence, ranked, names)
            entity_id = entity_id or main
            numbers = extract_numbers(sentence, nlp, parsed.spans)
            for i, number in enumerate(numbers):
                start = numbers[i - 1].end if i else 0
                fact = _fact(number, sentence, start, said)
                if fact is None or (sentence, number.value) in seen:
                    continue
                seen.add((sentence, number.value))
                measure, kind = fact
                facts.append(
                    NumericFact(
                        id=f"{chunk_id}#n{n}",
                        doc_id=doc_id,
                        chunk_id=chunk_id,
                        value=number.value,
                        unit=number.unit,
                        measure=measure,
                        kind=kind,
                        entity_id=entity_id,
                        entity_name=label.get(entity_id, ""),
                        text=sentence,
                    )
                )
                n += 1
    return facts


def _fact(
    number: NumberMention, sentence: str, start: int, names: Sequence[str]
) -> tuple[str, str] | None:
    """(measure, kind) of a number: the measure from its clause, the kind from the words
    between the previous number and this one plus a trailing "or more" / "or less"."""
    if number.label not in _FACT_LABELS:
        return None
    before = sentence[: number.start]
    measure = _measure(before, names)
    if not measure:
        return None  # a number with nothing said about what it counts
    clause = _CLAUSE.split(sentence[start : number.start])[-1]
    after = _TRAILING.match(sentence[number.end :])
    direction = direction_of(clause + " " + (after.group() if after else ""))
    kind = direction if direction in {"max", "min"} else "amount"
    return measure, kind


__all__ = [
    "NUMERIC_FACTS_VERSION",
    "FactSource",
    "chunk_facts",
    "chunk_facts_many",
    "chunk_values",
    "measure_words",
]
