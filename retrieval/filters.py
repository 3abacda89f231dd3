"""Metadata filters applied on every retrieval: document source, type and date range.

A filter that cannot match because it is malformed says so instead of answering nothing: an
impossible date (``2026-13``), a range that ends before it starts, and, once a search found
nothing, a type or source that no document has (``check_known``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.errors import InputError
from graph_store import GraphStore

# Documents read per page when a search that found nothing looks up the types and sources
# present; only that rare path reads them all.
_PAGE = 1000
# How many of the present values an error lists.
_SHOWN = 12


@dataclass(frozen=True)
class SearchFilters:
    """All given conditions must hold. Dates are ISO ``YYYY[-MM[-DD]]`` strings captured at
    ingest; a document without a date fails any date condition. A source is compared without a
    trailing slash; ``source_folder``, when the caller named a folder on this machine, is its
    absolute path, which matches too (a document's default source is its folder's path)."""

    source: str | None = None
    doc_type: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    source_folder: str | None = None

    def __post_init__(self) -> None:
        for name in ("date_from", "date_to"):
            value = getattr(self, name)
            if value is not None and not _is_iso_prefix(value):
                raise InputError(
                    _public(name), f"expected an ISO date like 2026-03-01, got {value!r}"
                )
        start, end = self.date_from, self.date_to
        if start and end:
            n = min(len(start), len(end))
            if start[:n] > end[:n]:
                raise InputError("from", f"the range ends ({end}) before it starts ({start})")
        for name in ("source", "source_folder"):
            value = getattr(self, name)
            if value:
                object.__setattr__(self, name, _unslashed(value))

    @property
    def active(self) -> bool:
        return any(v for v in (self.source, self.doc_type, self.date_from, self.date_to))

    def accepts(self, source: str, doc_type: str, date: str) -> bool:
        if self.source and _unslashed(source) not in (self.source, self.source_folder):
            return False
        if self.doc_type and doc_type.casefold() != self.doc_type.casefold():
            return False
        if self.date_from and (not date or date[: len(self.date_from)] < self.date_from):
            return False
        return not (self.date_to and (not date or date[: len(self.date_to)] > self.date_to))


def check_known(filters: SearchFilters, store: GraphStore) -> None:
    """For a search that found nothing: a type or source that no document has is an
    ``InputError`` listing those present (a typo must not read as "no such documents")."""
    if not (filters.doc_type or filters.source):
        return
    types: set[str] = set()
    sources: set[str] = set()
    offset = 0
    while batch := store.list_documents(offset, _PAGE):
        types.update(d.doc_type for d in batch if d.doc_type)
        sources.update(_unslashed(d.source) for d in batch if d.source)
        offset += len(batch)
    wanted = filters.doc_type
    if wanted and wanted.casefold() not in {t.casefold() for t in types}:
        raise InputError("type", f"no document has type {wanted!r}; types: {_listing(types)}")
    if filters.source and not {filters.source, filters.source_folder} & sources:
        raise InputError(
            "source", f"no document has source {filters.source!r}; sources: {_listing(sources)}"
        )


def _listing(values: set[str]) -> str:
    shown = sorted(values)[:_SHOWN]
    more = f" and {len(values) - len(shown)} more" if len(values) > len(shown) else ""
    return (", ".join(repr(v) for v in shown) + more) if shown else "(none)"


def _unslashed(value: str) -> str:
    return value.rstrip("/") or value


def _public(name: str) -> str:
    """The name a user gives the filter (``--from``, JSON ``from``)."""
    return {"date_from": "from", "date_to": "to"}.get(name, name)


def _is_iso_prefix(value: str) -> bool:
    """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` naming a real year, month or day."""
    parts = value.split("-")
    if not 1 <= len(parts) <= 3 or len(parts[0]) != 4:
        return False
    if not (all(p.isdigit() for p in parts) and all(len(p) == 2 for p in parts[1:])):
        return False
    year, month, day = (int(p) for p in (*parts, "01", "01")[:3])
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True
