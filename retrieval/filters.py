"""Metadata filters applied on every retrieval: document source, type and date range."""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import InputError


@dataclass(frozen=True)
class SearchFilters:
    """All given conditions must hold. Dates are ISO ``YYYY[-MM[-DD]]`` strings captured at
    ingest; a document without a date fails any date condition."""

    source: str | None = None
    doc_type: str | None = None
    date_from: str | None = None
    date_to: str | None = None

    def __post_init__(self) -> None:
        for name in ("date_from", "date_to"):
            value = getattr(self, name)
            if value is not None and not _is_iso_prefix(value):
                raise InputError(name, f"expected an ISO date like 2026-03-01, got {value!r}")

    @property
    def active(self) -> bool:
        return any(v for v in (self.source, self.doc_type, self.date_from, self.date_to))

    def accepts(self, source: str, doc_type: str, date: str) -> bool:
        if self.source and source != self.source:
            return False
        if self.doc_type and doc_type.casefold() != self.doc_type.casefold():
            return False
        if self.date_from and (not date or date[: len(self.date_from)] < self.date_from):
            return False
        return not (self.date_to and (not date or date[: len(self.date_to)] > self.date_to))


def _is_iso_prefix(value: str) -> bool:
    parts = value.split("-")
    if not 1 <= len(parts) <= 3 or len(parts[0]) != 4:
        return False
    return all(p.isdigit() for p in parts) and all(len(p) == 2 for p in parts[1:])
