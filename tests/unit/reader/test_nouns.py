"""What a sentence says of a noun, read from the dependency parse (``reader.nouns``), and the
short answers the reader gives by it (``reader.extractive``). Real trained pipeline, no mocks."""

from __future__ import annotations

import pytest

from reader.answer_types import Ner
from reader.extractive import extractive_answer
from reader.nouns import asked_class, asked_noun, called, class_of, completes, of_what, valued
from reader.settings import ReaderSettings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.unit.conftest import Doc


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("What language were the tales translated into?", "language"),
        ("In what film did Ann Lee play a cat?", "film"),
        ("What is the name of the band founded by Tom Hale?", "band"),
        ("What is the main airport of the city where Ann Lee was born?", "airport"),
        # The noun "of what" completes: the figure of a "<noun> of <figure>" sentence.
        ("The fleet, founded in 1731, landed a yearly catch of what in 2011?", "catch"),
        ("Who wrote the novel?", None),
    ],
)
def test_the_asked_noun_is_the_interrogatives_the_copulas_subject_or_what_of_completes(
    ner: Ner, question: str, noun: str | None
) -> None:
    assert asked_noun(question) == noun


@pytest.mark.parametrize(
    ("sentence", "noun", "name"),
    [
        ("Greyfoss is a waterfall on the Elm River.", "waterfall", "Greyfoss"),
        # A bracketed aside is read past; the name keeps all its words.
        (
            "Elm Vale Regional Airport (IATA: EVR) is a public airport north of Kelton.",
            "airport",
            "Elm Vale Regional Airport",
        ),
        ("The hotel is a landmark of Kelton.", "landmark", None),  # no proper name
        ("Greyfoss lies on the Elm River near a waterfall.", "waterfall", None),  # not said to be
    ],
)
def test_the_name_a_sentence_says_is_the_asked_noun(
    ner: Ner, sentence: str, noun: str, name: str | None
) -> None:
    assert called(sentence, noun) == name


@pytest.mark.parametrize(
    ("sentence", "noun", "figure"),
    [
        (
            "The museum's capital programme of £4.2m will rebuild the west wing.",
            "programme",
            "£4.2m",
        ),
        ("The council set a target of 75% by May 2027.", "target", "75%"),  # not the date
        ("The budget of the festival is $3 million.", "budget", "$3 million"),
        ("In 2011 the village had a population of 2,360.", "population", "2,360"),
        ("The budget of the museum was cut.", "budget", None),  # whose budget, not how much
        ("The target of the campaign, with a budget of 5 million, is the youth.", "target", None),
    ],
)
def test_the_figure_a_sentence_gives_the_asked_noun(
    ner: Ner, sentence: str, noun: str, figure: str | None
) -> None:
    assert valued(sentence, noun) == figure


def test_the_noun_of_what_completes_and_how_the_question_describes_it() -> None:
    assert of_what("Guests include a painter known for his bold depictions of what?") == (
        "depiction",
        frozenset({"bold"}),
    )
    assert of_what("The festival is held in the capital of what?") == ("capital", frozenset())
    assert of_what("What is the capital of Norland?") is None


@pytest.mark.parametrize(
    ("sentence", "noun", "described", "found"),
    [
        (
            "Ann Lee is a painter known for her bold depictions of harbour towns at dusk.",
            "depiction",
            frozenset({"bold"}),
            "harbour towns",  # not "at dusk", which hangs from the towns
        ),
        (
            "Ann Lee is a painter known for her careful depictions of harbour towns.",
            "depiction",
            frozenset({"bold"}),
            None,  # described otherwise: not the depictions asked about
        ),
        ("Millbrook is the capital of the Oregon coast.", "capital", frozenset(), "Oregon coast"),
        ("Ann Lee paints harbour towns.", "depiction", frozenset(), None),
    ],
)
def test_what_a_sentence_says_the_noun_is_of(
    ner: Ner, sentence: str, noun: str, described: frozenset[str], found: str | None
) -> None:
    assert completes(sentence, noun, described) == found


def test_the_named_subject_whose_class_is_asked() -> None:
    assert asked_class("What is the Greyfoss an instance of?") == frozenset({"greyfoss"})
    assert asked_class("What is Harbour Tales a kind of?") == frozenset({"harbour", "tales"})
    assert asked_class("What kind of ship carried the cargo?") is None  # "of" has its object
    assert asked_class("What is the capital of Norland?") is None


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("Greyfoss is a tall waterfall on the Elm River.", "waterfall"),
        ("The Greyfoss Inn is a hotel beside the falls.", "hotel"),  # "greyfoss" in its name
        ("Harbour Tales is a radio drama about a fishing town.", None),  # another subject
        ("The falls are beautiful in spring.", None),  # no class
    ],
)
def test_the_class_a_sentence_puts_the_subject_in(
    ner: Ner, sentence: str, found: str | None
) -> None:
    assert class_of(sentence, frozenset({"greyfoss"})) == found


def test_a_sentence_that_calls_something_the_asked_noun_answers_with_its_name(ner: Ner) -> None:
    """The page names the river first, yet it says the falls are the waterfall asked for."""
    evidence = [
        Doc(
            "falls",
            "Greyfoss",
            "Greyfoss is a waterfall on the Elm River at the border of Norland and Ostmark.",
        )
    ]
    question = "What is the name of the waterfall on the Elm River?"
    ex = extractive_answer(question, evidence, SentenceTransformerEmbedder(), ner=ner)
    assert ex.answer.startswith("Greyfoss [falls]"), ex.answer


def test_a_sentence_about_the_subject_that_gives_the_asked_noun_a_figure_answers_with_it(
    ner: Ner,
) -> None:
    """The figure leads, not the clinics the same sentence names; another museum's budget,
    ranked first, does not answer for this one."""
    evidence = [
        Doc("other", "Kelton Museum plan", "The Kelton Museum has a capital programme of £9.1m."),
        Doc(
            "plan",
            "Harbour Museum plan 2026",
            "The Harbour Museum's capital programme of £4.2m will refurbish the Elm and Fern "
            "galleries and replace the museum's vans with electric ones.",
        ),
    ]
    question = "What is the Harbour Museum's capital programme for 2026?"
    ex = extractive_answer(question, evidence, SentenceTransformerEmbedder(), ner=ner)
    assert ex.answer.startswith("£4.2m [plan]"), ex.answer


def test_a_sentence_completing_the_asked_noun_answers_with_what_completes_it(ner: Ner) -> None:
    """The institute's page names the painter; the painter's page says what he depicts. The
    names in that sentence (his nationality) do not answer."""
    evidence = [
        Doc(
            "inst",
            "The Lantern Institute",
            "Notable speakers at the Lantern Institute included the painter Tom Reed.",
        ),
        Doc(
            "reed",
            "Tom Reed",
            "Tom Reed (1921 – 2013) was a Welsh painter known for his bold depictions of "
            "harbour towns.",
        ),
    ]
    question = (
        "Speakers at the Lantern Institute include a painter known for his bold depictions of what?"
    )
    on = extractive_answer(question, evidence, SentenceTransformerEmbedder(), ner=ner)
    assert on.answer.startswith("harbour towns [reed]"), on.answer
    options = ReaderSettings(of_what_sentences=0)
    off = extractive_answer(
        question, evidence, SentenceTransformerEmbedder(), ner=ner, options=options
    )
    assert not off.answer.startswith("harbour towns"), off.answer


def test_a_class_question_answers_with_the_class_its_subject_is_put_in(ner: Ner) -> None:
    """Another sentence's subject named in the question (the series) is not the subject
    whose class is asked."""
    evidence = [
        Doc("tales", "Harbour Tales", "Harbour Tales is a radio drama written by Ann Lee."),
        Doc("fall", "Greyfoss", "Greyfoss is a waterfall on the Elm River near Millbrook."),
    ]
    question = "What is Greyfoss an instance of, in the town where Harbour Tales is set?"
    ex = extractive_answer(question, evidence, SentenceTransformerEmbedder(), ner=ner)
    assert ex.answer.startswith("waterfall [fall]"), ex.answer
