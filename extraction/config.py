"""Extraction settings (``KG_EXTRACTION__*``): the LLM schema, its limits, resolution thresholds.

The schema is configuration: which entity types and relation types the LLM may produce. Lists
are given in the environment as JSON (``KG_EXTRACTION__RELATION_TYPES='["LEADS","FUNDS"]'``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, Field, field_validator

from graph_schema.models import RELATION_TYPE_PATTERN

DEFAULT_ENTITY_TYPES = [
    "PERSON",
    "ORGANIZATION",
    "LOCATION",
    "PLAN",
    "PROGRAMME",
    "SERVICE",
    "POLICY",
    "EVENT",
    "WORK",
    "CONCEPT",
]
DEFAULT_RELATION_TYPES = [
    "MEMBER_OF",
    "PART_OF",
    "LEADS",
    "PROVIDES",
    "IMPLEMENTS",
    "ALIGNS_WITH",
    "PRODUCES",
    "HOSTS",
    "OVERSEES",
    "FUNDS",
    "REPORTS_TO",
    "WORKS_FOR",
    "LOCATED_IN",
    "SUCCEEDED_BY",
    "RELATED_TO",
]

_ACTORS = ["PERSON", "ORGANIZATION"]
DEFAULT_RELATION_SOURCES: dict[str, list[str]] = {
    "WORKS_FOR": ["PERSON"],
    "LEADS": _ACTORS,
    "MEMBER_OF": _ACTORS,
    "REPORTS_TO": _ACTORS,
    "OVERSEES": _ACTORS,
    "FUNDS": _ACTORS,
    "PROVIDES": [*_ACTORS, "PROGRAMME", "SERVICE"],
    "IMPLEMENTS": [*_ACTORS, "PROGRAMME"],
    "HOSTS": [*_ACTORS, "LOCATION", "EVENT"],
}
DEFAULT_RELATION_TARGETS: dict[str, list[str]] = {
    "WORKS_FOR": ["ORGANIZATION"],
    "MEMBER_OF": ["ORGANIZATION"],
    "REPORTS_TO": _ACTORS,
    "LOCATED_IN": ["LOCATION", "ORGANIZATION"],
    "IMPLEMENTS": ["PLAN", "PROGRAMME", "POLICY", "SERVICE"],
}


class ResolutionSettings(BaseModel):
    """When two differently written names are one entity.

    ``name`` similarity is rapidfuzz's ratio of the normalised names (0..1), ``embedding`` the
    cosine of their name embeddings. Both at or above the merge thresholds: one entity (the
    other name becomes its alias). Both at or above the same-as thresholds: two entities joined
    by ``SAME_AS`` with the score. Names carrying different numbers are never merged."""

    merge_name_similarity: float = Field(default=0.92, ge=0.0, le=1.0)
    merge_embedding_similarity: float = Field(default=0.88, ge=-1.0, le=1.0)
    merge_min_chars: int = Field(default=6, ge=1)
    same_as_name_similarity: float = Field(default=0.80, ge=0.0, le=1.0)
    same_as_embedding_similarity: float = Field(default=0.75, ge=-1.0, le=1.0)
    # An acronym that spells exactly one long form seen elsewhere, never defined next to it.
    acronym_same_as_score: float = Field(default=0.7, ge=0.0, le=1.0)
    # Nearest stored entities compared with each new one (0: no comparison with the graph).
    store_candidates: int = Field(default=5, ge=0, le=100)


class ExtractionSettings(BaseModel):
    # The trained spaCy pipeline whose NER joins the rules (extraction/nlp.py): "auto" for
    # en_core_web_sm when installed (the default install has it), an installed package name or
    # a pipeline directory, or "" for the rules alone on a blank English pipeline.
    spacy_model: str = "auto"
    # Numbers each chunk states, stored as NumericFact nodes (extraction/numeric_facts.py): the
    # threshold catalogue the numeric tools read. Part of the extractor version.
    numeric_facts: bool = True
    llm_enabled: bool = True
    entity_types: list[str] = Field(default_factory=lambda: list(DEFAULT_ENTITY_TYPES))
    relation_types: list[str] = Field(default_factory=lambda: list(DEFAULT_RELATION_TYPES))
    # The prompt file extraction/prompts/<prompt_version>.md; part of the cache key and version.
    prompt_version: str = "extract.v1"
    # Which entity types a relation type may start from / end at (a type not listed admits
    # any). A relation against these is dropped: small models write "RCP PART_OF AWT" for
    # "AWT is part of RCP" and "AWT WORKS_FOR Acme Widgets".
    relation_sources: dict[str, list[str]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_RELATION_SOURCES.items()}
    )
    relation_targets: dict[str, list[str]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_RELATION_TARGETS.items()}
    )
    # Chunks in flight at once: 1 matches the one-slot local server (``kg llm serve``); with
    # 4 the queued requests timed out in its queue. Raise it for a hosted API.
    llm_concurrency: int = Field(default=1, ge=1, le=64)
    # Output cap per chunk: the reply schema bounds it at 15 entities and 15 relations, about
    # 700 tokens; the cap stops a reply that still runs on (cut off = failed, not repaired).
    llm_max_tokens: int = Field(default=900, ge=64)
    # Entities and relations taken from one chunk's answer; the rest are dropped with a warning.
    llm_max_items: int = Field(default=60, ge=1, le=1000)
    resolution: ResolutionSettings = ResolutionSettings()

    @field_validator("relation_types")
    @classmethod
    def _valid_relation_types(cls, value: list[str]) -> list[str]:
        bad = [t for t in value if not RELATION_TYPE_PATTERN.match(t)]
        if bad:
            raise ValueError(f"relation types {bad} do not match {RELATION_TYPE_PATTERN.pattern}")
        return value

    @field_validator("entity_types")
    @classmethod
    def _valid_entity_types(cls, value: list[str]) -> list[str]:
        bad = [t for t in value if not RELATION_TYPE_PATTERN.match(t)]
        if bad:
            raise ValueError(f"entity types {bad} do not match {RELATION_TYPE_PATTERN.pattern}")
        return value


class ChunkingSettings(BaseModel):
    # MiniLM truncates at 256 word pieces; 200 leaves room for the overlap sentence.
    max_tokens: int = Field(default=200, ge=16, le=8192)
    overlap_sentences: int = Field(default=1, ge=0, le=5)


class IngestSettings(BaseModel):
    # Files above this are refused with a clear error instead of being read into memory.
    max_file_bytes: int = Field(default=20 * 1024 * 1024, ge=1024)
    # Documents committed per transaction during bulk ingest. A batch is all-or-nothing, so a
    # crash never leaves a half-written document, and a dead call is redone whole by the next
    # (extraction/run_markers.py), so the size costs nothing in recovery. Each commit
    # checkpoints, which dominated writes at 64 (MuSiQue: 60 commits, 17 s); 256 measured
    # best (94.6 -> 74.1 s whole ingest); at 1024 the embedding feed holds the model so long
    # that resolution's name embeddings wait behind it (78.2 s).
    batch_documents: int = Field(default=256, ge=1, le=10_000)
    # A write batch is at least this fraction of the documents the store holds (up to
    # ``batch_documents_max``): each embedded commit has a part that grows with the store
    # whatever the batch, so fixed batches made a large build quadratic. 6,144 passages into
    # an empty store (docs/benchmarks.md, Scale, session 26): 24 commits and 86.6 s of writes
    # at 256 a batch, 13 and 54.9 s growing by 0.25. Most of that part was the STRING[]
    # columns since removed (a 42-document commit at 6,100 documents: 5.9 -> 1.1 s); the
    # commits' number still grows only logarithmically. 0 keeps every batch at
    # ``batch_documents``.
    batch_growth: float = Field(default=0.25, ge=0.0, le=4.0)
    batch_documents_max: int = Field(default=2048, ge=1, le=100_000)
    # Chunks are embedded as "title\ntext": a passage rarely repeats its document's name, yet
    # questions ask by that name. Changing it re-embeds every document on the next sync.
    embed_title: bool = True
    # Entity names are embedded on a second copy of the model (extraction/embed_feed.py), beside
    # the chunk feed on the other core, instead of taking turns with it on one model: the
    # model's work is most of an ingest's and one copy runs it one call at a time. 400 MuSiQue
    # passages, 5 alternating rounds at load 14-17: 4.60 against 3.55 passages/s (x1.43-1.70
    # at load 14), 80.8 against 78.9 ms CPU a passage, the same graph and vectors (digests);
    # about 90 MB for the copy. docs/benchmarks.md, "Ingest speed".
    names_beside_chunks: bool = True
    # A folder's README.md describes the folder and is skipped (with a line saying so) unless
    # this is set; see extraction.loaders.discover.
    include_readmes: bool = False


class IngestHost(Protocol):
    """What the ingest pipeline reads of the assembled settings (the shell's ``Settings``)."""

    @property
    def data_dir(self) -> Path: ...
    @property
    def ingest(self) -> IngestSettings: ...
    @property
    def chunking(self) -> ChunkingSettings: ...
    @property
    def extraction(self) -> ExtractionSettings: ...
