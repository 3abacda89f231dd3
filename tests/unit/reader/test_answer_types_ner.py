"""The reader's NER reads a sentence once: an ask reads most of its evidence twice."""

from __future__ import annotations

from typing import Any

import pytest

import extraction.nlp
from reader.answer_types import spacy_ner


def test_a_sentence_read_before_is_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    piped: list[str] = []
    real = extraction.nlp.load_pipeline

    class Counting:
        def __init__(self, nlp: Any) -> None:
            self._nlp = nlp

        def pipe(self, texts: list[str]) -> Any:
            piped.extend(texts)
            return self._nlp.pipe(texts)

    monkeypatch.setattr(extraction.nlp, "load_pipeline", lambda name: Counting(real(name)))
    ner = spacy_ner("auto")
    assert ner is not None
    first = "Odile Marchetti moved to Quillby Harbour in 1931."
    second = "The Verrin Company hired Tomas Okafor in March 1950."
    read = ner([first, first])
    assert read[0] == read[1] and ("1931", "DATE") in read[0]
    assert piped == [first]  # a sentence twice in one call is parsed once
    again = ner([second, first])
    assert again[1] == read[0] and ("March 1950", "DATE") in again[0]
    assert piped == [first, second]  # only the sentence not read before
    again[1].clear()  # a caller's list is its own
    assert ner([first]) == [read[0]]
