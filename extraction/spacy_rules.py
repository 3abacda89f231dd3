"""Rule-based extraction on a blank spaCy English pipeline (always available, offline).

Finds capitalised name spans, acronyms defined next to their long form, aliases introduced by
"known as / also called / formerly", typed relations from a few high-precision verb patterns,
and sentence co-occurrence. The result is keyed by normalised names; resolution to entity ids
happens later, over the whole run and the graph's own aliases (extraction/resolution.py).
When ``KG_SPACY_MODEL`` names an installed trained pipeline, its NER spans are added too.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from extraction.normalize import acronym_matches, normalize_name

EXTRACTOR_VERSION = "spacy-rules-1"

# Lower-case words allowed inside a capitalised name ("Department for Health and Social ...").
_CONNECTORS = {"of", "and", "for", "the", "&", "de", "du", "la", "von", "van", "on", "in", "upon"}
_ACRONYM = re.compile(r"^[A-Z][A-Za-z]?[A-Z0-9&]{1,8}s?$")
_YEARISH = re.compile(r"^\d{2,4}([-–/]\d{2,4})?$")

# phrase (lower-case tokens) -> relation type. High precision only; anything else between two
# names in a sentence is left to the low-weight co-occurrence edge.
RELATION_PATTERNS: dict[str, str] = {
    "is a member of": "MEMBER_OF",
    "is member of": "MEMBER_OF",
    "are members of": "MEMBER_OF",
    "is part of": "PART_OF",
    "is a part of": "PART_OF",
    "forms part of": "PART_OF",
    "leads": "LEADS",
    "led": "LEADS",
    "provides": "PROVIDES",
    "provided": "PROVIDES",
    "implements": "IMPLEMENTS",
    "aligns with": "ALIGNS_WITH",
    "is aligned with": "ALIGNS_WITH",
}
_ALIAS_CUES = ("formerly known as", "also known as", "also called", "known as", "formerly")

CO_OCCURS = "CO_OCCURS"
CO_OCCURRENCE_WEIGHT = 0.2  # low on purpose: a shared sentence is weak evidence of a relation
MAX_NAMES_PER_SENTENCE = 8  # bounds co-occurrence pairs per sentence at 28


@dataclass
class ChunkFacts:
    mentions: Counter[str] = field(default_factory=Counter)
    relations: list[tuple[str, str, str, float]] = field(default_factory=list)


@dataclass
class DocFacts:
    title_key: str
    surfaces: dict[str, str]  # normalised key -> display name
    types: dict[str, str]
    aliases: list[tuple[str, str, str, float]]  # (alias surface, target key, method, confidence)
    chunks: list[ChunkFacts]


class SpacyRuleExtractor:
    """Constructing is free; the spaCy pipeline is built on first use."""

    version = EXTRACTOR_VERSION

    def __init__(self, trained_model: str = "") -> None:
        self._trained_model = trained_model
        self._nlp: Any = None
        self._patterns: list[tuple[list[str], str]] = sorted(
            ((p.split(), t) for p, t in RELATION_PATTERNS.items()), key=lambda x: -len(x[0])
        )

    def _pipeline(self) -> Any:
        if self._nlp is None:
            import spacy

            if self._trained_model:
                from kg.errors import ConfigError

                try:
                    self._nlp = spacy.load(self._trained_model)
                except OSError as exc:
                    raise ConfigError(
                        f"KG_SPACY_MODEL={self._trained_model!r} is not an installed spaCy pipeline"
                    ) from exc
            else:
                self._nlp = spacy.blank("en")
            if "sentencizer" not in self._nlp.pipe_names and "parser" not in self._nlp.pipe_names:
                self._nlp.add_pipe("sentencizer")
        return self._nlp

    def extract(self, title: str, chunks: list[str]) -> DocFacts:
        nlp = self._pipeline()
        title_key = normalize_name(title)
        surfaces: dict[str, str] = {title_key: title.strip()} if title_key else {}
        types: dict[str, str] = {title_key: "SUBJECT"} if title_key else {}
        aliases: list[tuple[str, str, str, float]] = []
        facts: list[ChunkFacts] = []
        for doc in nlp.pipe(chunks):
            cf = ChunkFacts()
            if title_key:
                cf.mentions[title_key] += 1
            for sent in doc.sents:
                spans = self._names(sent, doc)
                for surface, key, _s, _e, kind in spans:
                    surfaces.setdefault(key, surface)
                    types.setdefault(key, kind)
                    cf.mentions[key] += 1
                aliases.extend(self._aliases(sent, spans))
                cf.relations.extend(self._relations(sent, spans, doc))
                keys = list(dict.fromkeys(k for _, k, _, _, _ in spans))[:MAX_NAMES_PER_SENTENCE]
                for i, a in enumerate(keys):
                    for b in keys[i + 1 :]:
                        cf.relations.append((a, CO_OCCURS, b, CO_OCCURRENCE_WEIGHT))
            facts.append(cf)
        return DocFacts(title_key, surfaces, types, aliases, facts)

    # --- spans ----------------------------------------------------------------
    def _names(self, sent: Any, doc: Any) -> list[tuple[str, str, int, int, str]]:
        """Capitalised spans as (surface, key, start token, end token, type)."""
        out: list[tuple[str, str, int, int, str]] = []
        toks = list(sent)
        i = 0
        while i < len(toks):
            if not _is_cap(toks[i]):
                i += 1
                continue
            j = i + 1
            while j < len(toks) and _continues_name(toks, j):
                j += 1
            span = doc[toks[i].i : toks[j - 1].i + 1]
            # Drop leading function words ("The", sentence-initial "For 2026/27").
            while len(span) > 1 and (span[0].is_stop or span[0].lower_ in _CONNECTORS):
                span = span[1:]
            if self._keep(span, sent):
                surface = span.text.strip()
                kind = "ACRONYM" if len(span) == 1 and _ACRONYM.match(surface) else "NAME"
                out.append((surface, normalize_name(surface), span.start, span.end, kind))
            i = j
        if getattr(doc, "ents", None):
            for ent in doc.ents:
                if ent.start >= sent.start and ent.end <= sent.end:
                    key = normalize_name(ent.text)
                    if key and not any(k == key for _, k, _, _, _ in out):
                        out.append((ent.text, key, ent.start, ent.end, ent.label_))
        return [s for s in out if s[1]]

    @staticmethod
    def _keep(span: Any, sent: Any) -> bool:
        if not span.text.strip() or not any(c.isalpha() for c in span.text):
            return False
        if len(span) == 1:
            tok = span[0]
            # A lone capitalised stop word or sentence-initial common word is not a name.
            if tok.is_stop or (tok.i == sent.start and not _ACRONYM.match(tok.text)):
                return False
            if len(tok.text) < 2:
                return False
        return True

    # --- aliases --------------------------------------------------------------
    def _aliases(
        self, sent: Any, spans: list[tuple[str, str, int, int, str]]
    ) -> list[tuple[str, str, str, float]]:
        out: list[tuple[str, str, str, float]] = []
        doc = sent.doc
        for idx, (surface, key, _start, end, _kind) in enumerate(spans):
            # "Long Form (ACR)": the acronym in brackets right after a name.
            if (
                end + 2 < len(doc) + 1
                and end + 2 <= sent.end
                and doc[end].text == "("
                and end + 2 < len(doc)
                and doc[end + 2].text == ")"
            ):
                acr = doc[end + 1].text
                if _ACRONYM.match(acr) and acronym_matches(acr, surface):
                    out.append((acr, key, "acronym", 0.95))
            # "X, formerly known as Y" / "X is also called Y"
            if idx + 1 < len(spans):
                nxt = spans[idx + 1]
                between = doc[end : nxt[2]].text.lower().replace(",", " ")
                between = " ".join(between.split())
                for cue in _ALIAS_CUES:
                    if between.endswith(cue) and len(between) <= len(cue) + 12:
                        out.append((nxt[0], key, cue.replace(" ", "_"), 0.9))
                        break
        return out

    # --- relations ------------------------------------------------------------
    def _relations(
        self, sent: Any, spans: list[tuple[str, str, int, int, str]], doc: Any
    ) -> list[tuple[str, str, str, float]]:
        out: list[tuple[str, str, str, float]] = []
        for a, b in itertools.pairwise(spans):
            words = [t.lower_ for t in doc[a[3] : b[2]] if not t.is_punct or t.text == ","]
            words = [w for w in words if w not in {"the", "a", "an"} or len(words) > 2]
            phrase = " ".join(w for w in words if w not in {"the"})
            for pattern, rel in self._patterns:
                if phrase == " ".join(pattern) or phrase == " ".join(pattern) + " a":
                    out.append((a[1], rel, b[1], 1.0))
                    break
        return out


def _continues_name(toks: list[Any], j: int) -> bool:
    """Whether token j extends the capitalised name that started before it."""
    t = toks[j]
    nxt = toks[j + 1] if j + 1 < len(toks) else None
    if _is_cap(t) or _YEARISH.match(t.text):
        return True
    if nxt is None:
        return False
    if t.lower_ in _CONNECTORS:
        return _is_cap(nxt)
    if t.text in {"-", "–", "/"}:
        return _is_cap(nxt) or bool(nxt.like_num and toks[j - 1].like_num)
    return False


def _is_cap(tok: Any) -> bool:
    text = tok.text
    return bool(text) and text[0].isupper() and any(c.isalpha() for c in text)
