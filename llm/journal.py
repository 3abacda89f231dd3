"""An append-only JSONL journal of LLM calls outside an agent run (e.g. ingest extraction).

Thread-safe; the file and its folder are created on the first write, never in the
constructor.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def write(self, event: str, **fields: Any) -> None:
        line = json.dumps({"ts": time.time(), "event": event, **fields}, default=str)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as sink:
                sink.write(line + "\n")
