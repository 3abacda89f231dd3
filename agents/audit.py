"""One JSONL audit file per run: every prompt, model call, query, retrieved id, tool call.

Lines are ``{"ts", "run_id", "event", ...payload}``. Secrets never reach the file: keys that
name credentials are dropped and the configured secret values are masked wherever they appear.
The file is created on the first event, not when the log object is made.
"""

from __future__ import annotations

import json
import re
import threading
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_SECRET_KEYS = re.compile(r"api[_-]?key|authorization|password|secret|token_value", re.I)
MASK = "***"


def new_run_id() -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{uuid.uuid4().hex[:8]}"


class AuditLog:
    """``directory=None`` keeps nothing (benchmark runs, which make thousands of runs)."""

    def __init__(self, directory: Path | None, run_id: str, secrets: Sequence[str] = ()) -> None:
        self._enabled = directory is not None
        self._path = (directory or Path()) / f"{run_id}.jsonl"
        self._run_id = run_id
        self._secrets = [s for s in secrets if s]
        self._lock = threading.Lock()

    @property
    def path(self) -> Path | None:
        return self._path if self._enabled else None

    @property
    def run_id(self) -> str:
        return self._run_id

    def write(self, event: str, **payload: Any) -> None:
        if not self._enabled:
            return
        record = {
            "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "run_id": self._run_id,
            "event": event,
            **_scrub(payload),
        }
        line = json.dumps(record, ensure_ascii=False, default=str)
        for secret in self._secrets:
            line = line.replace(secret, MASK)
        with self._lock:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            with self._path.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")


def _scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: (MASK if _SECRET_KEYS.search(str(k)) else _scrub(v)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(v) for v in value]
    return value


def read(path: Path) -> list[dict[str, Any]]:
    """The events of one audit file, in order."""
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
