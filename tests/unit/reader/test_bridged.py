"""What a chain's bridge carries in the answer sentence, on invented documents."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from reader.answer_types import Ner, spacy_ner
from reader.extractive import extractive_answer
from reader.settings import ReaderSettings
from retrieval.embedder import SentenceTransformerEmbedder


@dataclass(frozen=True)
class Doc:
    chunk_id: str
    doc_title: str
    text: str


DOCS = [
    Doc("ann", "Ann Lee", "Ann Lee (born 1950) is a Norwegian poet and translator. She lives in "
        "a small town by the sea."),
    Doc("tern", "Arctic tern", "The Arctic tern is a seabird of the tern family. It breeds in "
        "northern Sweden and the Norwegian county of Finnmark."),
    Doc("debt", "Foreign holdings of the Freedonian debt", "The Freedonian debt is held at home "
        "and abroad. As of 2020, foreign banks held $3 trillion of the debt, the largest holder "
        "being Norway (about $1.2 trillion) then Japan (about $0.9 trillion)."),
]  # fmt: skip


@pytest.fixture(scope="module")
def ner() -> Ner:
    found = spacy_ner("auto")
    assert found is not None, "make installs en_core_web_sm"
    return found


@pytest.fixture(scope="module")
def embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


def _lead(question: str, ner: Ner, embedder: SentenceTransformerEmbedder, on: bool) -> str:
    options = ReaderSettings(bridge_subject_sentences=3 if on else 0)
    answer = extractive_answer(question, DOCS, embedder, ner=ner, options=options).answer
    return answer.split("\n")[0]


def test_the_bridge_as_short_answer_gives_way_to_what_it_carries(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    # Ann Lee's page makes her Norwegian (the bridge: Norway); the debt page's sentence
    # gives Norway its amount.
    question = "What is the debt load carried by the country Ann Lee is from?"
    assert _lead(question, ner, embedder, on=False).startswith("Norway [")
    assert _lead(question, ner, embedder, on=True).startswith("about $1.2 trillion [")


def test_a_question_without_a_chain_keeps_its_answer(
    ner: Ner, embedder: SentenceTransformerEmbedder
) -> None:
    question = "Which country is the largest holder of the Freedonian debt?"
    assert _lead(question, ner, embedder, on=True).startswith("Norway [")
