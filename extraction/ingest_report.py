"""What an ingest call did: counts, failures, LLM usage and wall seconds per phase."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from core.errors import InputError


@dataclass
class IngestReport:
    files: int = 0
    documents_seen: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    # committed by an ingest that died, deleted and written again with this call's evidence
    redone: int = 0
    chunks_written: int = 0
    failed: list[InputError] = field(default_factory=list)
    seconds: float = 0.0
    # entity resolution
    entities: int = 0
    new_entities: int = 0
    merged: int = 0
    same_as: int = 0
    # LLM extraction (all zero on the rules-only path)
    llm_requests: int = 0
    llm_cached: int = 0
    llm_failed_chunks: int = 0
    llm_retries: int = 0
    llm_chunks: int = 0  # chunks asked of the LLM (cached ones not included)
    tokens_in: int = 0
    tokens_out: int = 0
    # wall seconds per phase; phases overlap with the background chunk embedding
    phases: dict[str, float] = field(default_factory=dict)
    # wall seconds the embedding model ran, by purpose (chunks, names, count_tokens)
    model_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def written(self) -> int:
        return self.added + self.updated


class PhaseClock:
    """Adds wall seconds per named phase to the report."""

    def __init__(self, report: IngestReport) -> None:
        self._report = report
        self._name = ""
        self._start = 0.0

    def __call__(self, name: str) -> PhaseClock:
        self._name = name
        return self

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        spent = time.perf_counter() - self._start
        self._report.phases[self._name] = self._report.phases.get(self._name, 0.0) + spent
