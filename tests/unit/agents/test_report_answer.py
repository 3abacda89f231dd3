"""The report answerer's guards: when the small model's short answer may lead the offline
report (invented sentences)."""

from __future__ import annotations

from agents.models import EvidenceItem
from agents.report_answer import _grounded, _refused
from reader.sentence_rank import Candidate


def _cand(sentence: str, n: int) -> Candidate:
    item = EvidenceItem(chunk_id=f"c{n}", doc_id="d", doc_title="Doc", text=sentence, score=1.0)
    return Candidate(sentence=sentence, passage=item, rank=n, position=n)


SHOWN = [
    _cand("Kestrel Water and Orrin Mills are members of the Valley Compact.", 0),
    _cand("Tessa Bay Council joined the Valley Compact in 2024.", 1),
]


def test_a_lead_stands_when_its_words_or_each_listed_item_are_in_the_sentences() -> None:
    assert _grounded("Kestrel Water and Orrin Mills", SHOWN[:1])
    assert _grounded("Kestrel Water, Orrin Mills and Tessa Bay Council", SHOWN)
    assert not _grounded("Kestrel Water, Marlow Energy", SHOWN)  # one item in no sentence
    assert _grounded("yes", [])


def test_no_lead_for_unknown_an_echo_or_a_report_that_found_nothing() -> None:
    question = "Which bodies are members of the Valley Compact?"
    assert _refused("unknown", question, "MEDIUM")
    assert _refused("Valley Compact", question, "MEDIUM")  # repeats the question's words
    assert _refused("Kestrel Water", question, "LOW")  # not found stays not found
    assert _refused("Kestrel Water", question, "MEDIUM") == ""
