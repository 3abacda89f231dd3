"""The sync manifest: what the last complete sync read from each file, so that an idle
``kg watch`` tick costs a ``stat`` per file instead of a parse per file and a read of every
stored document.

One JSON file in the sync state dir maps each file (resolved path) to its size, mtime, SHA-256
and the document uris it yielded (or the reason it failed to load). A tick trusts it only when
its header matches: same format, extractor version, file-size limit and the graph version the
store had when it was written (any write made elsewhere, a ``kg delete``, an API ingest, an
``init --reset``, moves that on). Then per file: same size and mtime -> unchanged; different ->
hash the bytes, same hash -> unchanged (the entry takes the new stat); anything else (a new,
changed or removed file, an unreadable manifest) -> a full sync, which rewrites the manifest.

Safety: the manifest only ever lets a tick skip work, never delete anything; the full sync
keeps its own rules. It is removed before a full sync writes and saved only after one that
finished with no document failing, so a run killed half-way is never taken for done.
An mtime within ``_RACY_NS`` of the moment it was recorded is not trusted (a write in the same
clock tick keeps the mtime): such a file is hashed until its stamp is old enough.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
_FORMAT = 1
_RACY_NS = 2_000_000_000


@dataclass
class FileEntry:
    size: int
    mtime_ns: int
    sha256: str  # empty for a file over the size limit (its size alone decided it)
    uris: list[str] = field(default_factory=list)
    error: str = ""  # the load failure these bytes give, re-reported by an idle tick
    recorded_ns: int = 0


@dataclass(frozen=True)
class Idle:
    """An idle tick's findings: nothing to do."""

    unchanged: int  # documents the files hold
    errors: list[tuple[str, str]]  # (file, reason) of files that fail to load, as before


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def entry_for(
    path: Path, before: tuple[int, int] | None, max_bytes: int, uris: list[str], error: str = ""
) -> FileEntry | None:
    """The entry for a file just loaded, or None when it cannot be vouched for (unreadable, or
    changed while it was loaded: its stamp moved)."""
    if before is None:
        return None
    try:
        sha = "" if before[0] > max_bytes else _sha256(path)
    except OSError:
        return None
    if stamp(path) != before:
        return None
    return FileEntry(before[0], before[1], sha, uris, error, time.time_ns())


class Manifest:
    def __init__(self, path: Path) -> None:
        self._path = path

    def header(self, extractor_version: str, max_bytes: int, graph_version: str) -> dict[str, Any]:
        return {
            "format": _FORMAT,
            "extractor_version": extractor_version,
            "max_file_bytes": max_bytes,
            "graph_version": graph_version,
        }

    def load(self) -> tuple[dict[str, Any], dict[str, FileEntry]] | None:
        """Header and entries, or None when there is none or it cannot be read (it is then
        rebuilt by the full sync that follows)."""
        try:
            raw = json.loads(self._path.read_text(encoding="utf-8"))
            entries = {p: FileEntry(**e) for p, e in raw["files"].items()}
            header = dict(raw["header"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            log.warning(
                "sync manifest %s unreadable (%s); a full sync rebuilds it", self._path, exc
            )
            return None
        return header, entries

    def save(self, header: dict[str, Any], entries: dict[str, FileEntry]) -> None:
        body = {"header": header, "files": {p: asdict(e) for p, e in sorted(entries.items())}}
        self._path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._path.with_suffix(".tmp")
        tmp.write_text(json.dumps(body, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, self._path)

    def invalidate(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self._path.unlink()

    def idle(
        self,
        files: Iterable[Path],
        roots: list[Path],
        header: dict[str, Any],
        graph_version: Callable[[], str],
    ) -> Idle | None:
        """``Idle`` when the files (resolved) under the live ``roots`` are those the manifest
        holds, with the same contents, and the graph is the one it was written against;
        otherwise None. Reads the store for its version only, last."""
        loaded = self.load()
        if loaded is None:
            return None
        stored, entries = loaded
        expected = {k: v for k, v in header.items() if k != "graph_version"}
        if any(stored.get(k) != v for k, v in expected.items()):
            return None
        seen: set[str] = set()
        touched = False
        for path in files:
            key = str(path)
            seen.add(key)
            entry = entries.get(key)
            if entry is None:
                return None  # a new file
            now = stamp(path)
            if now is None:
                return None
            racy = entry.mtime_ns >= entry.recorded_ns - _RACY_NS
            if now == (entry.size, entry.mtime_ns) and not racy:
                continue
            if now[0] != entry.size or not entry.sha256:
                return None
            fresh = entry_for(path, now, now[0], entry.uris, entry.error)
            if fresh is None or fresh.sha256 != entry.sha256:
                return None  # changed content
            entries[key] = fresh  # touched, same bytes: trust the new stamp from now on
            touched = True
        for key in entries:
            if key not in seen and any(Path(key).is_relative_to(r) for r in roots):
                return None  # a removed file
        if stored.get("graph_version") != graph_version():
            return None  # the graph was written by something else since
        if touched:
            self.save(stored, entries)
        mine = [entries[k] for k in seen]
        return Idle(
            unchanged=sum(len(e.uris) for e in mine),
            errors=[(k, entries[k].error) for k in sorted(seen) if entries[k].error],
        )
