"""Fixtures the reader's unit tests share: the trained pipeline's entities, and a passage
written in the test."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from reader.answer_types import Ner, spacy_ner
from reader.parse import parsed


@dataclass(frozen=True)
class Doc:
    """A passage as the reader reads one: its chunk id, document title and text."""

    chunk_id: str
    doc_title: str
    text: str


@pytest.fixture(scope="session")
def ner() -> Ner:
    """Entities by en_core_web_sm (``make test`` installs it; its parser is checked too)."""
    found = spacy_ner("auto")
    assert found is not None and parsed("A test.") is not None, "no trained spaCy pipeline"
    return found
