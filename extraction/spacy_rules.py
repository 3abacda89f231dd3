"""Rule-based extraction on a blank spaCy English pipeline (always available, offline).

Finds name spans (extraction/names.py), acronyms defined next to their long form, aliases
introduced by apposition or by "known as / also called / formerly", typed relations from a few
high-precision verb patterns (a lower-case noun phrase may be the object of some), and sentence
co-occurrence. The result is keyed by normalised names; resolution to entity ids happens later,
over the whole run and the graph's own aliases (extraction/resolution.py). With a trained
pipeline (``KG_EXTRACTION__SPACY_MODEL``; extraction/nlp.py), its NER adds the names the rules
miss and types the ones they find. Sentences are extraction/nlp.py's, the same as chunking's.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from core.names import acronym_matches, normalize_name
from extraction.facts import (
    ACRONYM,
    CO_OCCURS,
    CONCEPT,
    NAME,
    SUBJECT,
    AliasFact,
    ChunkFacts,
    DocFacts,
    ExtractionStats,
    RelationFact,
)
from extraction.names import ARTICLES, NameSpan, find_names, is_acronym
from extraction.nlp import load_pipeline
from extraction.numbers import value_spans

# Bump whenever the extraction output for the same text changes: stored documents written by
# another version are re-extracted by the next ingest or sync.
EXTRACTOR_VERSION = "spacy-rules-4"


class Pattern(NamedTuple):
    type: str
    passive: bool = False  # "Y is led by X" states X LEADS Y
    noun_phrase: bool = False  # the object may be a lower-case noun phrase ("provides care")


# The words between two names (articles dropped) -> relation. High precision only; anything
# else between two names in a sentence is left to the low-weight co-occurrence edge.
RELATION_PATTERNS: dict[str, Pattern] = {
    "is member of": Pattern("MEMBER_OF"),
    "are members of": Pattern("MEMBER_OF"),
    "is part of": Pattern("PART_OF"),
    "forms part of": Pattern("PART_OF"),
    "leads": Pattern("LEADS"),
    "led": Pattern("LEADS"),
    "is led by": Pattern("LEADS", passive=True),
    "provides": Pattern("PROVIDES", noun_phrase=True),
    "is provided by": Pattern("PROVIDES", passive=True),
    "implements": Pattern("IMPLEMENTS"),
    "aligns with": Pattern("ALIGNS_WITH"),
    "is aligned with": Pattern("ALIGNS_WITH"),
    "is produced by": Pattern("PRODUCES", passive=True),
    "hosts": Pattern("HOSTS"),
    "oversees": Pattern("OVERSEES"),
}
_WORD = re.compile(r"[^\W\d_]+")
# Kinds of name that write reports and say "we" in them.
_AUTHORS = frozenset({ACRONYM, "ORGANIZATION"})
# "We", "our", "us": in a report, the body that wrote it ("US" in capitals is a country).
_FIRST_PERSON = re.compile(r"\b(?:[Ww]e|us|[Oo]urs?|[Oo]urselves)\b")
_CLOSERS = frozenset({")", "]", '"', "”", "’"})
_LONGEST_PATTERN = max(len(p.split()) for p in RELATION_PATTERNS)
# cue (alphabetic words between two names, ending the gap) -> (method, alias is the first name)
ALIAS_CUES: dict[str, tuple[str, bool]] = {
    "now known as": ("renamed", True),  # before "known as": the longer cue must win
    "formerly known as": ("formerly_known_as", False),
    "previously known as": ("formerly_known_as", False),
    "also known as": ("also_known_as", False),
    "otherwise known as": ("also_known_as", False),
    "known as": ("known_as", False),
    "also called": ("also_called", False),
    "formerly": ("formerly", False),
    "renamed": ("renamed", True),
}
_CUE_SLACK = 3  # words allowed before a cue ("AWT was formerly known as", "is also called")
_MAX_NOUN_PHRASE = 5

CO_OCCURRENCE_WEIGHT = 0.2  # low on purpose: a shared sentence is weak evidence of a relation
MAX_NAMES_PER_SENTENCE = 8  # bounds co-occurrence pairs per sentence at 28
# Trained-NER labels (OntoNotes) for quantities and times: values, not entities.
_VALUE_LABELS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})
# The other OntoNotes labels as the schema's default entity types (extraction/config.py); the
# rest (NORP, PRODUCT, LANGUAGE) keep spaCy's label.
_NER_TYPES = {
    "PERSON": "PERSON",
    "ORG": "ORGANIZATION",
    "GPE": "LOCATION",
    "LOC": "LOCATION",
    "FAC": "LOCATION",
    "EVENT": "EVENT",
    "WORK_OF_ART": "WORK",
    "LAW": "POLICY",
}


class SpacyRuleExtractor:
    """Constructing is free; the spaCy pipeline is built on first use."""

    def __init__(self, trained_model: str = "") -> None:
        self._trained_model = trained_model
        self._nlp: Any = None
        self._nlp_lock = threading.Lock()

    @property
    def version(self) -> str:
        if self._trained_model:
            return f"{EXTRACTOR_VERSION}+{self._trained_model}"
        return EXTRACTOR_VERSION

    def _pipeline(self) -> Any:
        # Built in a local and published under a lock: another thread must never see a
        # pipeline that has no sentence boundaries yet (concurrent API uploads did).
        with self._nlp_lock:
            if self._nlp is None:
                self._nlp = load_pipeline(self._trained_model)
            return self._nlp

    def extract_many(self, docs: Sequence[tuple[str, Sequence[str]]]) -> list[DocFacts]:
        """Facts for many (title, chunk texts) documents, through one spaCy stream."""
        nlp = self._pipeline()
        flat = [text for _, chunks in docs for text in chunks]
        parsed = iter(nlp.pipe(flat, batch_size=256))
        ner = "ner" in nlp.pipe_names
        return [self._facts(title, [next(parsed) for _ in chunks], ner) for title, chunks in docs]

    def extract(self, title: str, chunks: Sequence[str]) -> DocFacts:
        return self.extract_many([(title, chunks)])[0]

    def usage(self) -> ExtractionStats:
        return ExtractionStats()

    def _facts(self, title: str, parsed: list[Any], ner: bool) -> DocFacts:
        title_key = normalize_name(title)
        facts = DocFacts(
            title_key=title_key,
            surfaces={title_key: title.strip()} if title_key else {},
            types={title_key: SUBJECT} if title_key else {},
            aliases=[],
            chunks=[],
        )
        strong: set[str] = set()
        if ner:
            facts.ner_model = self._trained_model
        for doc in parsed:
            # The value entities, for numeric facts (extraction/numeric_facts.py), which would
            # otherwise run this NER again over the chunk's sentences with numbers.
            cf = ChunkFacts(values=value_spans(doc) if ner else None)
            if title_key:
                cf.mentions[title_key] += 1
            for sent in doc.sents:
                spans = self._spans(doc, sent)
                for s in spans:
                    facts.surfaces.setdefault(s.key, s.surface)
                    facts.types.setdefault(s.key, s.kind)
                    cf.mentions[s.key] += 1
                    if s.weak:
                        facts.weak.add(s.key)
                    else:
                        strong.add(s.key)
                    if s.splits:
                        facts.compounds[s.key] = s.splits
                facts.aliases.extend(_aliases(doc, spans))
                cf.relations.extend(self._relations(doc, sent, spans, facts, cf))
                keys = list(dict.fromkeys(s.key for s in spans))[:MAX_NAMES_PER_SENTENCE]
                for i, a in enumerate(keys):
                    for b in keys[i + 1 :]:
                        cf.relations.append(RelationFact(a, CO_OCCURS, b, CO_OCCURRENCE_WEIGHT))
            facts.chunks.append(cf)
        author = _author(title_key, {k for k in strong if facts.types.get(k) in _AUTHORS})
        if author:
            for doc, cf in zip(parsed, facts.chunks, strict=True):
                if _FIRST_PERSON.search(doc.text):
                    cf.mentions[author] += 1
        # A word capitalised mid-sentence anywhere in the document is a name everywhere in it.
        facts.weak -= strong | {title_key}
        if facts.weak:
            words = (w for doc in parsed for w in _WORD.findall(doc.text))
            facts.lowercase = {w for w in words if w.islower()}
        return facts

    def _spans(self, doc: Any, sent: Any) -> list[NameSpan]:
        spans = find_names(doc, sent.start, sent.end)
        ents = [
            e
            for e in getattr(doc, "ents", ())
            if sent.start <= e.start and e.end <= sent.end and e.label_ not in _VALUE_LABELS
        ]
        if not ents:
            return spans
        # A rule span NER also found ("the Eiffel Tower" and "Eiffel Tower" alike) takes NER's
        # type, and is a name even as the weak single word after a sentence boundary.
        labels = {normalize_name(e.text): e.label_ for e in ents}
        for i, s in enumerate(spans):
            label = labels.get(s.key)
            if label is not None and s.kind != ACRONYM:
                spans[i] = replace(s, kind=_NER_TYPES.get(label, label), weak=False)
        taken = {k for s in spans for k in range(s.start, s.end)}
        for ent in ents:
            if any(k in taken for k in range(ent.start, ent.end)):
                continue
            key = normalize_name(ent.text)
            if key:
                kind = _NER_TYPES.get(ent.label_, ent.label_)
                spans.append(NameSpan(ent.start, ent.end, ent.text, key, kind))
        return sorted(spans, key=lambda s: s.start)

    # --- relations ------------------------------------------------------------
    def _relations(
        self, doc: Any, sent: Any, spans: list[NameSpan], facts: DocFacts, cf: ChunkFacts
    ) -> list[RelationFact]:
        out: list[RelationFact] = []
        for idx, a in enumerate(spans):
            nxt = spans[idx + 1] if idx + 1 < len(spans) else None
            stop = nxt.start if nxt else sent.end
            words, k = _words(doc, a.end, stop)
            if nxt is not None and k == nxt.start:
                pattern = RELATION_PATTERNS.get(" ".join(words))
                if pattern:
                    src, dst = (nxt.key, a.key) if pattern.passive else (a.key, nxt.key)
                    out.append(RelationFact(src, pattern.type, dst, 1.0))
                continue
            # "X provides community crisis cafés": the object is a noun phrase, not a name.
            for n in range(1, min(len(words), _LONGEST_PATTERN) + 1):
                pattern = RELATION_PATTERNS.get(" ".join(words[:n]))
                if pattern and pattern.noun_phrase:
                    phrase = _noun_phrase(doc, _skip_words(doc, a.end, n), stop)
                    if phrase:
                        key = normalize_name(phrase)
                        facts.surfaces.setdefault(key, phrase)
                        facts.types.setdefault(key, CONCEPT)
                        cf.mentions[key] += 1
                        out.append(RelationFact(a.key, pattern.type, key, 1.0))
                    break
        return out


def _words(doc: Any, start: int, stop: int) -> tuple[list[str], int]:
    """Lower-case words from ``start`` (articles dropped) until punctuation other than a comma,
    at most a pattern's length; returns them and where reading stopped."""
    words: list[str] = []
    k = start
    while k < stop and doc[k].text in _CLOSERS:  # "Long Form (ACR) leads ..."
        k += 1
    while k < stop and len(words) <= _LONGEST_PATTERN:
        tok = doc[k]
        if tok.is_punct and tok.text != ",":
            break
        if tok.is_alpha and tok.lower_ not in ARTICLES:
            words.append(tok.lower_)
        k += 1
    return words, k


def _author(title_key: str, names: set[str]) -> str:
    """The name a title begins with, when the text states it too ("AWT Plans for the
    Coming Year" -> "awt"): reports are titled by the body that wrote them, and their "we"
    is that body, so a passage that says only "we will open two depots" is still about
    AWT. The longest such name; none when the title is a name itself."""
    return max((k for k in names if title_key.startswith(k + " ")), key=len, default="")


def _skip_words(doc: Any, start: int, n: int) -> int:
    """Token index after ``n`` non-article words from ``start``."""
    k, seen = start, 0
    while seen < n:
        if doc[k].is_alpha and doc[k].lower_ not in ARTICLES:
            seen += 1
        k += 1
    return k


def _noun_phrase(doc: Any, start: int, stop: int) -> str:
    k = start
    while k < stop and doc[k].lower_ in ARTICLES:
        k += 1
    begin = k
    while (
        k < stop
        and k - begin < _MAX_NOUN_PHRASE
        and doc[k].is_lower
        and (doc[k].is_alpha or "-" in doc[k].text)
        and not doc[k].is_stop
    ):
        k += 1
    if k == begin:
        return ""
    return str(doc[begin:k].text)


# --- aliases ------------------------------------------------------------------
def _aliases(doc: Any, spans: list[NameSpan]) -> list[AliasFact]:
    out: list[AliasFact] = []
    for idx, a in enumerate(spans):
        b = spans[idx + 1] if idx + 1 < len(spans) else None
        if b is None:
            continue
        gap = doc[a.end : b.start]
        gap_text = "".join(t.text_with_ws for t in gap).strip()
        long_short = _acronym_pair(a, b)
        # "Long Form (ACR)" / "ACR (Long Form)"
        if gap_text == "(" and doc[b.end : b.end + 1].text == ")" and long_short:
            out.append(AliasFact(long_short[1].surface, long_short[0].key, "acronym", 0.95))
            continue
        # apposition: "ACR, the Long Form," / "the Long Form, ACR,"
        if gap_text in (",", ", the") and long_short:
            out.append(AliasFact(long_short[1].surface, long_short[0].key, "apposition", 0.85))
            continue
        words = [t.lower_ for t in gap if t.is_alpha]
        for cue, (method, reverse) in ALIAS_CUES.items():
            size = len(cue.split())
            if words[-size:] == cue.split() and len(words) - size <= _CUE_SLACK:
                alias, target = (a, b) if reverse else (b, a)
                if alias.key != target.key:
                    out.append(AliasFact(alias.surface, target.key, method, 0.9))
                break
    return out


def _acronym_pair(a: NameSpan, b: NameSpan) -> tuple[NameSpan, NameSpan] | None:
    """(long form, acronym) when one of two names is an acronym of the other."""
    for long, short in ((a, b), (b, a)):
        if (
            short.kind == ACRONYM
            and long.kind != ACRONYM
            and is_acronym(short.surface)
            and acronym_matches(short.surface, long.surface)
        ):
            return long, short
    return None


__all__ = [
    "CO_OCCURRENCE_WEIGHT",
    "CO_OCCURS",
    "EXTRACTOR_VERSION",
    "NAME",
    "RELATION_PATTERNS",
    "SpacyRuleExtractor",
]
