"""Few-shot guidance: worked examples closest to the question, shown to synthesis.

The file (``KG_AGENT__EXAMPLES_PATH``) is JSON — a list — or JSONL of
``{"question", "evidence_ids", "answer"}``. Examples fix format and citation style only; the
prompt says so, so their content is never taken as evidence. Without the setting, the
corpus's own file is used when there is one: ``<data_dir>/examples.jsonl`` (``kg ingest``
leaves a corpus folder's ``examples.jsonl`` alone: it is not a document type).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from core.errors import ConfigError
from retrieval.embedder import Embedder


class Example(BaseModel):
    question: str
    evidence_ids: list[str] = Field(default_factory=list)
    answer: str


def load_examples(path: Path) -> list[Example]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"examples file {path}: {exc}") from exc
    try:
        stripped = text.lstrip()
        if stripped.startswith("["):
            raw = json.loads(text)
        else:
            raw = [json.loads(line) for line in text.splitlines() if line.strip()]
        return [Example.model_validate(r) for r in raw]
    except (json.JSONDecodeError, ValidationError, TypeError) as exc:
        raise ConfigError(f"examples file {path} is malformed: {exc}") from exc


class ExampleIndex:
    """Examples with their question embeddings, computed on first use."""

    def __init__(self, examples: list[Example], embedder: Embedder) -> None:
        self._examples = examples
        self._embedder = embedder
        self._vectors: np.ndarray | None = None
        self._lock = threading.Lock()

    def nearest(self, question: str, n: int) -> list[Example]:
        if n <= 0 or not self._examples:
            return []
        with self._lock:
            if self._vectors is None:
                self._vectors = np.asarray(
                    self._embedder.embed([e.question for e in self._examples])
                )
        q = np.asarray(self._embedder.embed([question])[0])
        order = np.argsort(-(self._vectors @ q))[:n]
        return [self._examples[int(i)] for i in order]


_INDEXES: dict[tuple[str, float], ExampleIndex] = {}
_LOCK = threading.Lock()


DEFAULT_NAME = "examples.jsonl"


def default_examples(data_dir: Path) -> Path | None:
    """The data directory's examples file, when present."""
    path = data_dir / DEFAULT_NAME
    return path if path.is_file() else None


def examples_for(path: Path | None, embedder: Embedder, question: str, n: int) -> list[Example]:
    if path is None or n <= 0:
        return []
    key = (str(path.resolve()), path.stat().st_mtime if path.exists() else 0.0)
    with _LOCK:
        index = _INDEXES.get(key)
    if index is None:
        index = ExampleIndex(load_examples(path), embedder)
        with _LOCK:
            _INDEXES[key] = index
    return index.nearest(question, n)


def render(examples: list[Example]) -> str:
    if not examples:
        return ""
    parts = [
        "\nExamples of well-formed answers (they show format and citation style only; their "
        "content is not evidence for this question):"
    ]
    for e in examples:
        parts.append(f"Q: {e.question}\nA: {e.answer}")
    return "\n\n".join(parts) + "\n"
