"""The LLM reader's deterministic half: the numbered sentences it shows, the sentences a reply
names, and the cited answer built from them (invented text; the model is in tests/llm)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from pydantic import ValidationError

from agents.models import EvidenceBundle, EvidenceItem
from agents.reader import ReaderReply, compose, echoes, holds, numbered, supporting
from agents.verifier import check_deterministic
from reader.sentence_rank import Candidate


@dataclass(frozen=True)
class _Passage:
    chunk_id: str
    doc_title: str
    text: str


FILM = _Passage(
    "film-0",
    "The Quiet Harbour",
    "The Quiet Harbour is a 1998 drama film. The film was directed by Marta Kowal.",
)
KOWAL = _Passage(
    "kowal-0", "Marta Kowal", "Marta Kowal is a Polish director. She was born in Gdansk."
)
CANDS = [
    Candidate("The film was directed by Marta Kowal.", FILM, 0, 1),
    Candidate("She was born in Gdansk.", KOWAL, 1, 1),
    Candidate("The Quiet Harbour is a 1998 drama film.", FILM, 0, 0),
]


def test_sentences_are_numbered_from_one_under_their_title() -> None:
    assert numbered(CANDS).splitlines() == [
        "1. (The Quiet Harbour) The film was directed by Marta Kowal.",
        "2. (Marta Kowal) She was born in Gdansk.",
        "3. (The Quiet Harbour) The Quiet Harbour is a 1998 drama film.",
    ]


def test_the_named_sentences_support_the_answer_out_of_range_ones_dropped() -> None:
    assert supporting(ReaderReply(answer="Gdansk", sentences=[2, 9, 1]), CANDS) == [
        CANDS[1],
        CANDS[0],
    ]
    assert supporting(ReaderReply(answer="Gdansk", sentences=[2, 0, 2]), CANDS) == [CANDS[1]]


def test_with_no_valid_number_the_sentences_holding_the_answer_support_it() -> None:
    assert supporting(ReaderReply(answer="1998", sentences=[7]), CANDS) == [CANDS[2]]
    assert supporting(ReaderReply(answer="Lisbon", sentences=[]), CANDS) == []


def test_holds_matches_whole_words_in_order() -> None:
    assert holds("She was born in Gdansk.", "gdansk")
    assert holds("The film was directed by Marta Kowal.", "Marta Kowal")
    assert not holds("The Quiet Harbour is a 1998 drama film.", "199")
    assert not holds("The film was directed by Marta Kowal.", "Kowal Marta")


def test_the_answer_cites_each_chunk_once_and_quotes_its_sentences() -> None:
    answer, findings = compose("Gdansk", [CANDS[0], CANDS[1], CANDS[2]])
    lead, body = answer.split("\n\n")
    assert lead == "Gdansk [film-0] [kowal-0]"
    assert body == (
        "The film was directed by Marta Kowal. [film-0] She was born in Gdansk. [kowal-0] "
        "The Quiet Harbour is a 1998 drama film. [film-0]"
    )
    assert [(f.text, f.citations, f.kind) for f in findings][1] == (
        "She was born in Gdansk.",
        ["kowal-0"],
        "FACT",
    )
    evidence = EvidenceBundle(
        items=[
            EvidenceItem(
                chunk_id=p.chunk_id,
                doc_id=p.chunk_id,
                doc_title=p.doc_title,
                text=p.text,
                score=1.0,
            )
            for p in (FILM, KOWAL)
        ]
    )
    assert check_deterministic(answer, findings, evidence, 3).passed


def test_a_reply_is_a_short_answer_and_at_most_three_sentences() -> None:
    with pytest.raises(ValidationError):
        ReaderReply(answer="Gdansk", sentences=[1, 2, 3, 4])
    with pytest.raises(ValidationError):
        ReaderReply(answer="", sentences=[1])


def test_an_answer_that_only_repeats_the_question_is_no_answer() -> None:
    assert echoes("Where was the director of The Quiet Harbour born?", "The Quiet Harbour")
    assert not echoes("Where was the director of The Quiet Harbour born?", "Gdansk")
    assert not echoes("Was Marta Kowal or Jan Nowak born first?", "Marta Kowal")
    assert not echoes("Is The Quiet Harbour a drama?", "yes")
