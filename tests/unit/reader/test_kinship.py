"""Kinship questions composed from parents and spouses, on invented families."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agents.confidence import cap_by_parts
from reader.answer_types import Ner, spacy_ner
from reader.extractive import extractive_answer
from reader.kinship import asked_chain
from retrieval.embedder import SentenceTransformerEmbedder


@dataclass(frozen=True)
class Doc:
    chunk_id: str
    doc_title: str
    text: str


FAMILY = [
    Doc("ann", "Ann Lee", "Ann Lee (1901 – 1980) was a Welsh painter, the daughter of Tom Lee "
        "and his wife, Eva Ray. She married Carl Voss in 1925."),
    Doc("tom", "Tom Lee", "Tom Lee (1870 – 1931) was a printer. He was the son of Ivo the Tall "
        "and Mara Bell."),
    Doc("eva", "Eva Ray", "Eva Ray (1875 – 1950) was a teacher, the daughter of Olaf Ray."),
    Doc("carl", "Carl Voss", "Carl Voss was a sculptor. His father was Henrik Voss."),
    Doc("jon", "Jon Brand", "Jon Brand was a merchant. Jon Brand married Lia Holm in 1880. "
        "He was the son of Per Brand."),
]  # fmt: skip


@pytest.fixture(scope="module")
def ner() -> Ner:
    found = spacy_ner("auto")
    assert found is not None, "make installs en_core_web_sm"
    return found


def test_the_asked_kin_is_read_as_steps_from_the_named_person() -> None:
    assert asked_chain("Who is the maternal grandfather of Ann Lee?") == (
        ("mother", "father"),
        "Ann Lee",
    )
    assert asked_chain("Who is the father-in-law of Lia Holm?") == (
        ("spouse", "father"),
        "Lia Holm",
    )
    assert asked_chain("Who is the father of Ann Lee?") is None


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("Who is the paternal grandfather of Ann Lee?", "Ivo the Tall"),
        ("Who is the paternal grandmother of Ann Lee?", "Mara Bell"),
        ("Who is the maternal grandfather of Ann Lee?", "Olaf Ray"),
        ("Who is the father-in-law of Ann Lee?", "Henrik Voss"),
        # Lia Holm has no page: her spouse is the page whose subject married her.
        ("Who is the father-in-law of Lia Holm?", "Per Brand"),
    ],
)
def test_kin_is_composed_step_by_step(ner: Ner, question: str, lead: str) -> None:
    ex = extractive_answer(question, FAMILY, SentenceTransformerEmbedder(), ner=ner)
    assert ex.answer.startswith(f"{lead} ["), ex.answer[:80]
    # Read from word patterns: never HIGH.
    assert cap_by_parts("HIGH", "strong evidence", ex.parts, question)[0] != "HIGH"


def test_no_kin_is_given_when_a_step_finds_nobody(ner: Ner) -> None:
    question = "Who is the maternal grandmother of Ann Lee?"  # Eva Ray's mother is not named
    ex = extractive_answer(question, FAMILY, SentenceTransformerEmbedder(), ner=ner)
    assert not any(ex.answer.startswith(n) for n in ("Mara Bell", "Olaf Ray", "Eva Ray"))
