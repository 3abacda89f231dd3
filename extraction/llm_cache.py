"""On-disk cache of validated LLM extractions, so re-ingesting costs no calls.

Keyed by (chunk content hash, prompt version, model, schema): a new prompt, model or schema
asks again, the same chunk in another document or another run does not. One small JSON file
per entry, sharded by the key's first two hex digits, written atomically (temp file + rename),
so concurrent workers and killed runs never leave a half-written entry.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def cache_key(chunk_hash: str, prompt_version: str, model: str, schema: str) -> str:
    raw = "\x1f".join([chunk_hash, prompt_version, model, schema])
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class LlmCache:
    """Constructing does no I/O; the folder is created on the first write."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder

    @property
    def folder(self) -> Path:
        return self._folder

    def _path(self, key: str) -> Path:
        return self._folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:  # unreadable entry: ask again, overwrite later
            log.warning("llm cache: ignoring unreadable entry %s: %s", path, exc)
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        path = self._path(key)
        tmp = ""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(value, out, ensure_ascii=False, sort_keys=True)
            os.replace(tmp, path)
        except OSError as exc:  # a full or read-only disk costs calls later, not this run
            log.warning("llm cache: cannot write %s: %s", path, exc)
            if tmp:
                Path(tmp).unlink(missing_ok=True)
