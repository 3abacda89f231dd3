"""Which documents an interrupted ingest left resolved against evidence that no longer exists.

Entity resolution weighs evidence across all documents of one ingest call (which weak words
the call also writes in lower case, which names it defines as aliases, which names are stored).
A call killed after some of its batches were committed leaves those documents resolved with the
whole call in view, and its entities in the store. A rerun that skipped them as unchanged would
resolve the rest against that half-written state and end with a graph that differs from a clean
build (measured: +1 to +7 entities on 300 MuSiQue passages, 6 kills out of 10).

So every call writes a marker naming its documents before its first write and removes it when
it completes. A later call that ingests any of the documents of a dead call's marker first
deletes them from the store (back to the state before the dead call, for those documents) and
then writes them again with its own, so they are resolved exactly as a clean build resolves
them. Markers of calls still running, in this process or in another live process, are left
alone: a concurrent call must never see its committed documents vanish.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import uuid
from collections.abc import Iterable
from pathlib import Path

# Marker files of calls running in this process; their documents are never redone.
_LIVE: set[str] = set()
_LIVE_LOCK = threading.Lock()


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


class RunMarkers:
    """Marker files under ``directory``; no I/O until a method is called."""

    def __init__(self, directory: Path) -> None:
        self._dir = directory

    def _markers(self) -> list[Path]:
        if not self._dir.is_dir():
            return []
        return sorted(self._dir.glob("*.json"))

    @staticmethod
    def _read(path: Path) -> tuple[int, set[str]]:
        """(pid, document ids); a marker torn when its process died names nothing."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return 0, set()
        if not isinstance(data, dict) or not isinstance(data.get("docs"), list):
            return 0, set()
        pid = data.get("pid")
        return (pid if isinstance(pid, int) else 0), {str(d) for d in data["docs"]}

    def _dead(self, path: Path, pid: int) -> bool:
        with _LIVE_LOCK:
            if str(path) in _LIVE:
                return False
        # A call of this process that raised is dead too: its marker is not in _LIVE.
        return pid == os.getpid() or not _process_alive(pid)

    def leftover(self) -> set[str]:
        """Document ids named by markers of calls that died before completing."""
        out: set[str] = set()
        for path in self._markers():
            pid, ids = self._read(path)
            if ids and self._dead(path, pid):
                out |= ids
        return out

    def start(self, doc_ids: Iterable[str]) -> Path:
        self._dir.mkdir(parents=True, exist_ok=True)
        path = self._dir / f"{uuid.uuid4().hex}.json"
        with _LIVE_LOCK:
            _LIVE.add(str(path))
        self._write(path, sorted(set(doc_ids)))
        return path

    def release(self, own: Path) -> None:
        """The call ended, completed or not; an incomplete call's marker stays on disk."""
        with _LIVE_LOCK:
            _LIVE.discard(str(own))

    def discard(self, own: Path) -> None:
        """Remove this call's marker only: it failed before committing anything."""
        with contextlib.suppress(FileNotFoundError):
            own.unlink()

    def finish(self, own: Path, covered: set[str]) -> None:
        """Remove this call's marker and take the documents it redid off dead calls' markers."""
        with contextlib.suppress(FileNotFoundError):
            own.unlink()
        self.release(own)
        for path in self._markers():
            pid, ids = self._read(path)
            if not ids & covered or not self._dead(path, pid):
                continue
            rest = ids - covered
            if rest:
                self._write(path, sorted(rest), pid)
            else:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()

    @staticmethod
    def _write(path: Path, ids: list[str], pid: int | None = None) -> None:
        tmp = path.with_suffix(".tmp")
        payload = {"pid": os.getpid() if pid is None else pid, "docs": ids}
        tmp.write_text(json.dumps(payload), encoding="utf-8")
        os.replace(tmp, path)  # atomic: a reader sees the old list or the new one
