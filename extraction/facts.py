"""What an extractor says about one document, keyed by normalised names.

Extractors (rules, LLM) produce these; entity resolution (extraction/resolution.py) turns them
into graph models once it has seen every document of a run and what the graph already holds.
Weak and compound names are only proposals here: resolution decides them with run-wide evidence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

# Entity kinds the rule extractor assigns; trained NER labels and the LLM schema add others.
SUBJECT = "SUBJECT"  # the name a document is about (its title)
ACRONYM = "ACRONYM"
NAME = "NAME"
CONCEPT = "CONCEPT"  # a lower-case noun phrase that a typed relation points at

CO_OCCURS = "CO_OCCURS"


class AliasFact(NamedTuple):
    alias: str  # the alias as written
    target: str  # normalised key of the name it stands for
    method: str  # acronym, formerly_known_as, apposition, llm, ...
    confidence: float


class RelationFact(NamedTuple):
    source: str  # normalised keys
    type: str
    target: str
    weight: float
    origin: str = ""  # the extractor version that found it; empty means the document's


@dataclass
class ChunkFacts:
    mentions: Counter[str] = field(default_factory=Counter)
    relations: list[RelationFact] = field(default_factory=list)
    # The entities the extractor's NER labelled as values (dates, amounts, counts), with
    # character offsets in the chunk: numeric facts label their numbers from them instead of
    # parsing the chunk's sentences again. None where no NER ran.
    values: list[tuple[int, int, str]] | None = None


@dataclass
class DocFacts:
    title_key: str
    surfaces: dict[str, str]  # normalised key -> the name as first written
    types: dict[str, str]
    aliases: list[AliasFact]
    chunks: list[ChunkFacts]
    descriptions: dict[str, str] = field(default_factory=dict)
    # Single capitalised words seen only at a sentence start: names only if seen elsewhere.
    weak: set[str] = field(default_factory=set)
    # Words the document writes in lower case: evidence that a weak word is a common word.
    lowercase: set[str] = field(default_factory=set)
    # Names that may be two ("A and B", "Chief Executive Jane Smith"): candidate splits as
    # written, split by resolution when both parts are names on their own.
    compounds: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # The trained spaCy pipeline whose NER gave the chunks' ``values`` ("" for none).
    ner_model: str = ""

    def merge(self, other: DocFacts) -> None:
        """Add another extractor's facts about the same document (same chunks)."""
        for key, surface in other.surfaces.items():
            self.surfaces.setdefault(key, surface)
        # A typed schema beats the rule extractor's coarse kinds and its NER labels; only the
        # document's own subject keeps its kind.
        for key, kind in other.types.items():
            if self.types.get(key) != SUBJECT:
                self.types[key] = kind
        for key, text in other.descriptions.items():
            self.descriptions.setdefault(key, text)
        self.aliases.extend(other.aliases)
        self.weak -= set(other.surfaces)
        for mine, theirs in zip(self.chunks, other.chunks, strict=True):
            for key, n in theirs.mentions.items():
                mine.mentions[key] = max(mine.mentions[key], n)
            mine.relations.extend(theirs.relations)


@dataclass(frozen=True)
class ExtractionStats:
    """Cumulative LLM usage of an extractor; the rules-only extractor stays at zero."""

    requests: int = 0  # HTTP requests sent, retries included
    cached: int = 0  # chunks answered from the cache
    failed_chunks: int = 0  # chunks that kept their rule-based facts only
    tokens_in: int = 0
    tokens_out: int = 0
    retries: int = 0  # of the requests, those that were the client's retries
    chunks: int = 0  # chunks asked of the LLM (not from the cache)

    def __sub__(self, other: ExtractionStats) -> ExtractionStats:
        return ExtractionStats(
            *(getattr(self, f) - getattr(other, f) for f in ExtractionStats.__dataclass_fields__)
        )


class Extractor(Protocol):
    """What the ingest pipeline needs from an extractor (rules, or rules plus an LLM)."""

    @property
    def version(self) -> str:
        """Stored on each document; a change marks documents for re-extraction."""

    def extract_many(self, docs: Sequence[tuple[str, Sequence[str]]]) -> list[DocFacts]:
        """Facts for each (title, chunk texts), in order."""

    def usage(self) -> ExtractionStats: ...
