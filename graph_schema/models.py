"""The graph model shared by every store adapter (see DESIGN.md, "Graph model")."""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

# Relation types live in a property and are validated, so no query ever builds a
# relationship type from text.
RELATION_TYPE_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]{0,49}$")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Document(_Model):
    id: str
    uri: str
    title: str
    content_hash: str
    extractor_version: str
    ingested_at: datetime
    source: str = ""
    doc_type: str = ""
    date: str = ""
    authority: float = 0.0


class Chunk(_Model):
    id: str
    doc_id: str
    index: int = Field(ge=0)
    text: str
    tokens: int = Field(ge=0)
    content_hash: str
    embedding: tuple[float, ...] = ()


class Entity(_Model):
    id: str
    name: str
    type: str = "THING"
    description: str = ""
    embedding: tuple[float, ...] = ()


class Alias(_Model):
    name: str
    normalized: str
    entity_id: str
    method: str
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)


class Relation(_Model):
    source_id: str
    target_id: str
    type: str
    weight: float = 1.0
    evidence: tuple[str, ...] = ()
    extractor: str = ""

    @field_validator("type")
    @classmethod
    def _valid_type(cls, value: str) -> str:
        if not RELATION_TYPE_PATTERN.match(value):
            raise ValueError(
                f"relation type {value!r} does not match {RELATION_TYPE_PATTERN.pattern}"
            )
        return value


class Mention(_Model):
    chunk_id: str
    entity_id: str
    count: int = Field(default=1, ge=1)


class SameAs(_Model):
    """Two entities that are probably one, kept apart because the evidence is not conclusive
    (entity resolution merges the conclusive pairs instead)."""

    source_id: str
    target_id: str
    score: float = Field(ge=0.0, le=1.0)
    method: str


class NumericFact(_Model):
    """A number a chunk states, with what it measures and about which entity: "the limit for
    total debts is £50,000" is value 50000, unit GBP, measure "limit total debts", kind "max".
    ``kind`` is "max" or "min" for a stated limit (the threshold catalogue), "amount" for any
    other figure. Replaced with its document: a document's facts are written and deleted
    with it."""

    id: str
    doc_id: str
    chunk_id: str
    value: float
    unit: str = ""
    measure: str = ""
    kind: str = "amount"
    entity_id: str = ""
    entity_name: str = ""
    text: str = ""  # the sentence that states it


class DocumentGraph(_Model):
    """Everything one document contributes to the graph, written in one transaction."""

    document: Document
    chunks: tuple[Chunk, ...]
    entities: tuple[Entity, ...] = ()
    aliases: tuple[Alias, ...] = ()
    relations: tuple[Relation, ...] = ()
    mentions: tuple[Mention, ...] = ()
    # Written by adapters that support SAME_AS edges; the document is their provenance.
    same_as: tuple[SameAs, ...] = ()
    numeric_facts: tuple[NumericFact, ...] = ()
