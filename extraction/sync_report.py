"""What one sync run did: the report ``kg sync``, ``kg watch`` and the jobs API print or return
(kept apart from the syncer so that readers of a report need not import the sync machinery)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SyncFailure:
    source: str
    reason: str

    def __str__(self) -> str:
        return f"{self.source}: {self.reason}"


@dataclass
class SyncReport:
    """What one sync did. Document lists hold uris; ``unchanged`` is only counted."""

    roots: list[str] = field(default_factory=list)
    files: int = 0
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    reextracted: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    # unchanged documents written again because a changed or removed one shared entities
    reresolved: list[str] = field(default_factory=list)
    unchanged: int = 0
    failed: list[SyncFailure] = field(default_factory=list)
    # folders' README.md files left out (KG_INGEST__INCLUDE_READMES), said rather than silent
    skipped: list[str] = field(default_factory=list)
    refreshed: bool = False
    cancelled: bool = False
    seconds: float = 0.0

    @property
    def changed_anything(self) -> bool:
        return bool(
            self.added or self.changed or self.reextracted or self.removed or self.reresolved
        )
