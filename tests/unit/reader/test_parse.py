"""Who does the asked relation, read from the dependency parse (``reader.parse``), and the
short answer that fills that role (``reader.extractive``). Real trained pipeline, no mocks."""

from __future__ import annotations

import pytest

from reader.answer_types import Ner, short_answer
from reader.extractive import extractive_answer
from reader.parse import (
    Asked,
    asked,
    role_spans,
)
from reader.settings import ReaderSettings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.unit.conftest import Doc


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Who wrote the novel about the lighthouse?", Asked("write", "agent")),
        ("The film was directed by whom?", Asked("direct", "agent")),
        ("Which network aired the series?", Asked("air", "agent")),
        ("What did Ann Lee write in 1990?", Asked("write", "patient")),
        ("When was Ann Lee born?", None),
        ("What is the capital of the country?", None),
    ],
)
def test_the_question_names_a_verb_and_the_role_its_answer_plays(
    ner: Ner, question: str, want: Asked | None
) -> None:
    assert asked(question) == want


def _filled(sentence: str, want: Asked) -> list[str]:
    return [sentence[a:b] for a, b in role_spans(sentence, want)]


def test_the_role_is_the_subject_the_passive_agent_or_the_subject_of_the_governing_verb(
    ner: Ner,
) -> None:
    writes = Asked("write", "agent")
    assert _filled("The novel was written by Ann Lee and Tom Hale in 1990.", writes) == [
        "Ann Lee",
        "Tom Hale",
    ]
    # "to write" completes "decided": the one who decides writes; Tom is written about.
    assert _filled("Ann Lee decided to write a novel about Tom Hale.", writes) == ["Ann Lee"]
    assert _filled("The novel is about Tom Hale.", writes) == []


def test_the_short_answer_is_the_candidate_in_the_asked_role(ner: Ner) -> None:
    question = "Who wrote the book about the lighthouse keeper?"
    sentence = "Whitaker decided to write a book on Tom Hale in 2001."
    entities = ner([sentence])[0]
    roles = role_spans(sentence, asked(question) or Asked("write", "agent"))
    assert short_answer("PERSON", sentence, entities, question, roles) == "Whitaker"


def test_the_answer_is_read_where_the_parse_says_who_does_the_asked_relation(
    ner: Ner,
) -> None:
    # The book's page says who wrote it only through "decided to write"; the keeper's page
    # names the keeper, a person the question does not name either.
    evidence = [
        Doc(
            "keeper",
            "Tom Hale",
            "The most famous lighthouse keeper of the coast was Tom Hale, who kept the light "
            "for forty years.",
        ),
        Doc(
            "book",
            "The Keeper (book)",
            "The Keeper is a book by Welsh author Gwen Whitaker about the lighthouse keeper Tom "
            "Hale. Whitaker decided to write a book on Tom Hale in 2001.",
        ),
    ]
    question = "Who wrote the book about the most famous lighthouse keeper of the coast?"
    reading = extractive_answer(
        question,
        evidence,
        SentenceTransformerEmbedder(),
        options=ReaderSettings(role_sentences=3),
        ner=ner,
    )
    lead = reading.answer.splitlines()[0]
    # "Whitaker" fills the role; the document names her in full.
    assert lead.startswith("Gwen Whitaker"), reading.answer


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Who was the founding chair of the Lantern Society?", Asked("chair", "holder")),
        ("Who is the wife of the society's founder?", Asked("wife", "holder")),
        ("Who is Ann Lee?", None),  # what she is, not who holds a role
    ],
)
def test_a_question_can_ask_who_holds_the_role_a_noun_names(
    ner: Ner, question: str, want: Asked | None
) -> None:
    assert asked(question) == want


@pytest.mark.parametrize(
    "sentence",
    [
        "Gwen Whitaker, who was the founding chair of the society, studied storms.",
        "The founding chair of the society was Gwen Whitaker.",
        "Tom Hale met the society's founding chair, Gwen Whitaker, in 1901.",
        "Gwen Whitaker, the founding chair of the society, studied storms.",
        "Tom Hale's aunt, Gwen Whitaker, was the founding chair of the society.",
    ],
)
def test_the_holder_of_a_role_is_read_around_the_noun_that_names_it(
    ner: Ner, sentence: str
) -> None:
    assert _filled(sentence, Asked("chair", "holder")) == ["Gwen Whitaker"]


def test_the_holder_answers_even_where_ner_misses_the_name(ner: Ner) -> None:
    """The small model labels no person in "Marlow, who ..." but Tom Hale; the parse says
    Marlow was the chair. With the holder parse off, the person NER found answers."""
    evidence = [
        Doc(
            "society",
            "Lantern Society",
            "Marlow, who was the founding chair of the Lantern Society, studied storms with "
            "Tom Hale.",
        )
    ]
    question = "Who was the founding chair of the Lantern Society?"
    embedder = SentenceTransformerEmbedder()
    on = extractive_answer(question, evidence, embedder, ner=ner)
    assert on.answer.startswith("Marlow [society]"), on.answer
    options = ReaderSettings(holder_sentences=0)
    off = extractive_answer(question, evidence, embedder, ner=ner, options=options)
    assert off.answer.startswith("Tom Hale [society]"), off.answer
