"""Choice questions ("Which band was formed first, A or B?") on made-up evidence."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from agents.confidence import cap_by_parts
from reader.answer_types import Ner, spacy_ner
from reader.choice import choose, options
from reader.extractive import extractive_answer
from reader.sentence_rank import sentence_candidates
from retrieval.embedder import SentenceTransformerEmbedder


@dataclass(frozen=True)
class Doc:
    chunk_id: str
    doc_title: str
    text: str


EVIDENCE = [
    Doc(
        "exies",
        "The Exies",
        "The Exies are an American rock band from Los Angeles. The band was formed in 1997 "
        "by Scott Stevens.",
    ),
    Doc(
        "circus",
        "Circus Diablo",
        "Circus Diablo is a British rock band. The band was formed in 2004 in London by "
        "Billy Duffy.",
    ),
]


@pytest.fixture(scope="module")
def ner() -> Ner:
    found = spacy_ner("auto")
    assert found is not None, "make installs en_core_web_sm"
    return found


def test_the_options_are_the_names_joined_by_or_at_the_end() -> None:
    assert options("Which band was formed first The Exies or Circus Diablo ?") == [
        "The Exies",
        "Circus Diablo",
    ]
    assert options("Who is the oldest, Sid Haig or Vic Darchinyan?") == [
        "Sid Haig",
        "Vic Darchinyan",
    ]
    assert options("Who wrote the novel?") == []


@pytest.mark.parametrize(
    ("question", "option"),
    [
        ("Which band was formed first, The Exies or Circus Diablo?", "The Exies"),
        ("Which band was formed more recently, The Exies or Circus Diablo?", "Circus Diablo"),
        ("Which band is British, The Exies or Circus Diablo?", "Circus Diablo"),
        # Sizes are not compared, and a property both or neither have settles nothing.
        ("Which band is larger, The Exies or Circus Diablo?", None),
        ("Which band plays rock, The Exies or Circus Diablo?", None),
    ],
)
def test_the_option_is_read_from_each_options_sentences(
    ner: Ner, question: str, option: str | None
) -> None:
    cands = sentence_candidates(EVIDENCE, 5, ner)
    found = choose(question, cands, np.zeros(len(cands)))
    assert (found.option if found else None) == option


def test_the_choice_leads_the_answer_and_is_never_high(ner: Ner) -> None:
    question = "Which band was formed first, The Exies or Circus Diablo?"
    ex = extractive_answer(question, EVIDENCE, SentenceTransformerEmbedder(), ner=ner)
    assert ex.answer.startswith("The Exies [exies] [circus]")
    assert ("The band was formed in 1997 by Scott Stevens.", "exies") in ex.sentences
    level, _ = cap_by_parts("HIGH", "strong evidence", ex.parts, question)
    assert level == "MEDIUM"


# Invented films and people: two films, their directors' pages with lifespans.
LIVES = [
    Doc(
        "rain",
        "Dancing in the Rain",
        "Dancing in the Rain is a 1952 American comedy film directed by Harold Vance "
        "and starring Ruth Allen.",
    ),
    Doc(
        "letters",
        "Letters to a Stranger",
        "Letters to a Stranger is a 1938 British drama film directed by Edwin Marsh "
        "for a London studio.",
    ),
    Doc(
        "vance",
        "Harold Vance",
        "Harold Vance (3 May 1901, Dayton, Ohio – 9 June 1990, Tucson, Arizona) was an "
        "American film director.",
    ),
    Doc(
        "marsh",
        "Edwin Marsh",
        "Edwin Marsh (12 October 1895 – 2 February 1961) was an English film director and writer.",
    ),
]


def test_titles_with_lower_case_words_stay_whole() -> None:
    assert options("Which film came out first, Dancing in the Rain or Letters to a Stranger?") == [
        "Dancing in the Rain",
        "Letters to a Stranger",
    ]


@pytest.mark.parametrize(
    ("question", "option"),
    [
        ("Which film came out first, Dancing in the Rain or Letters to a Stranger?",
         "Letters to a Stranger"),
        # A lifespan gives the birth before the dash and the death after it.
        ("Who was born first, Harold Vance or Edwin Marsh?", "Edwin Marsh"),
        ("Who died later, Harold Vance or Edwin Marsh?", "Harold Vance"),
        ("Who lived longer, Harold Vance or Edwin Marsh?", "Harold Vance"),
        ("Who is older, Harold Vance or Edwin Marsh?", "Edwin Marsh"),
        # The films compared by their directors: the director's page, through the film's.
        ("Which film has the director who died first, Dancing in the Rain or Letters to a "
         "Stranger?", "Letters to a Stranger"),
        ("Which film has the director born later, Dancing in the Rain or Letters to a "
         "Stranger?", "Dancing in the Rain"),
    ],
)  # fmt: skip
def test_times_of_lives_are_read_from_lifespans(ner: Ner, question: str, option: str) -> None:
    cands = sentence_candidates(LIVES, 5, ner)
    found = choose(question, cands, np.zeros(len(cands)))
    assert found is not None and found.option == option


def test_a_birth_or_death_is_read_from_its_half_of_a_lifespan(ner: Ner) -> None:
    embedder = SentenceTransformerEmbedder()
    for question, lead in [
        ("When was the director of film Dancing in the Rain born?", "3 May 1901"),
        ("When did the director of film Dancing in the Rain die?", "9 June 1990"),
        ("Where was the director of film Dancing in the Rain born?", "Dayton, Ohio"),
        ("Where did the director of film Dancing in the Rain die?", "Tucson, Arizona"),
    ]:
        ex = extractive_answer(question, LIVES, embedder, ner=ner)
        assert ex.answer.startswith(lead), (question, ex.answer[:80])
