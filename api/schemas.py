"""Request and response bodies of the /v1 routes (they document themselves at /docs)."""

from __future__ import annotations

import dataclasses
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from extraction.ingest_report import IngestReport

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    offset: int
    limit: int
    total: int


class DocumentOut(BaseModel):
    id: str
    uri: str
    title: str
    content_hash: str
    extractor_version: str
    ingested_at: str
    source: str
    doc_type: str
    date: str
    chunks: int


class FailedInput(BaseModel):
    source: str
    reason: str


class UploadedOut(BaseModel):
    id: str
    uri: str
    title: str


class IngestOut(BaseModel):
    files: int
    documents_seen: int
    added: int
    updated: int
    unchanged: int
    chunks_written: int
    failed: list[FailedInput]
    seconds: float
    # Uploads only: each uploaded document's id, URI and title (added, updated or unchanged).
    documents: list[UploadedOut] = Field(default_factory=list)
    # Server-side ingest only: READMEs a folder walk left out (KG_INGEST__INCLUDE_READMES).
    skipped: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, report: IngestReport) -> IngestOut:
        return cls(
            files=report.files,
            documents_seen=report.documents_seen,
            added=report.added,
            updated=report.updated,
            unchanged=report.unchanged,
            chunks_written=report.chunks_written,
            failed=[FailedInput(source=e.source, reason=e.reason) for e in report.failed],
            seconds=round(report.seconds, 3),
        )


# Request bodies refuse fields they do not have: a typo ("tpye") is a 422 naming it, not a
# filter silently dropped.
# Unknown fields are refused (a typo must not drop a filter), and values are taken as the
# schema types them: a JSON true is not the integer 1, nor "5" the number 5 (the fuzz's
# negative cases found `"max_iterations": true` accepted).
_STRICT = ConfigDict(extra="forbid", strict=True)


class IngestRequest(BaseModel):
    model_config = _STRICT

    paths: list[str] = Field(min_length=1, max_length=1000)


class DeletedOut(BaseModel):
    id: str
    title: str
    deleted: bool


# ISO YYYY[-MM[-DD]], as retrieval.filters.SearchFilters accepts; in the schema so that a bad
# date is a documented 422 before any retrieval runs.
_ISO_PREFIX = r"^[0-9]{4}(-[0-9]{2}){0,2}$"


class SearchRequest(BaseModel):
    """The filters carry the names ``kg search`` gives them (``--source``, ``--type``,
    ``--from``, ``--to``); every condition given must hold."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=4000)
    k: int = Field(default=5, ge=1, le=100)
    preset: str | None = None
    source: str | None = Field(default=None, max_length=500)
    doc_type: str | None = Field(default=None, alias="type", max_length=200)
    date_from: str | None = Field(default=None, alias="from", pattern=_ISO_PREFIX)
    date_to: str | None = Field(default=None, alias="to", pattern=_ISO_PREFIX)


class LinkedEntityOut(BaseModel):
    entity_id: str
    name: str
    score: float
    method: str
    specificity: float
    matched: str


class BridgeEntityOut(BaseModel):
    entity_id: str
    name: str


class SearchOut(BaseModel):
    question: str
    preset: str
    results: list[dict[str, Any]]
    # The entities the question was linked to and the bridges a second hop went through;
    # empty for the dense and hybrid presets, which do no linking.
    linked_entities: list[LinkedEntityOut]
    bridge_entities: list[BridgeEntityOut]
    # Set when there was nothing to search (no documents yet).
    message: str | None = None


class AskRequest(BaseModel):
    """The filters of ``/v1/search`` (``source``, ``type``, ``from``, ``to``) apply to every
    retrieval of the agent loop."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=4000)
    # Chunks retrieved per sub-query and agent rounds; the KG_AGENT__* settings when omitted.
    k: int | None = Field(default=None, ge=1, le=50)
    max_iterations: int | None = Field(default=None, ge=1, le=10)
    stream: bool = False
    source: str | None = Field(default=None, max_length=500)
    doc_type: str | None = Field(default=None, alias="type", max_length=200)
    date_from: str | None = Field(default=None, alias="from", pattern=_ISO_PREFIX)
    date_to: str | None = Field(default=None, alias="to", pattern=_ISO_PREFIX)


class CypherRequest(BaseModel):
    """Exactly one of ``query`` (Cypher) and ``question`` (text2cypher)."""

    model_config = _STRICT

    query: str | None = Field(default=None, min_length=1, max_length=20_000)
    question: str | None = Field(default=None, min_length=1, max_length=4000)
    params: dict[str, Any] = Field(default_factory=dict)
    max_rows: int = Field(default=100, ge=1)


def jsonable(value: Any) -> Any:
    """Plain JSON data from the store's dataclasses (or pydantic models), recursively."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)
