"""Which process holds the embedded store: ``kg serve`` and ``kg watch`` keep it open for as
long as they run, and Kùzu lets one process open it. They record themselves in
``<data dir>/holder.json`` so that a second command, refused by the store's file lock, can say
who holds it and what to do instead of quoting the lock error."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

FILE = "holder.json"


@dataclass(frozen=True)
class Holder:
    pid: int
    command: str
    url: str = ""

    def advice(self, data_dir: Path) -> str:
        where = f", {self.url}" if self.url else ""
        use = f" or use its API ({self.url}/docs)" if self.url else ""
        return (
            f"the graph at {data_dir} is held by '{self.command}' (pid {self.pid}{where}): "
            f"stop it (kill {self.pid}){use}, then run this again"
        )


def unknown_advice(data_dir: Path) -> str:
    return (
        f"the graph at {data_dir} is open in another process (a 'kg serve' or 'kg watch' on "
        "the same KG_DATA_DIR?): stop it, or use the API of the 'kg serve' holding it"
    )


def current(data_dir: Path) -> Holder | None:
    """The recorded holder if that process still runs (a killed one leaves its record)."""
    try:
        raw = json.loads((data_dir / FILE).read_text(encoding="utf-8"))
        found = Holder(int(raw["pid"]), str(raw["command"]), str(raw.get("url", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return found if _alive(found.pid) else None


@contextlib.contextmanager
def recorded(data_dir: Path, command: str, url: str = "") -> Iterator[None]:
    """Record this process as the holder while the block runs; call once the store is open
    (so a second server refused by the lock never overwrites the first one's record)."""
    path = data_dir / FILE
    data_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"pid": os.getpid(), "command": command, "url": url}), encoding="utf-8"
    )
    try:
        yield
    finally:
        mine = current(data_dir)
        if mine is not None and mine.pid == os.getpid():
            path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    return True
