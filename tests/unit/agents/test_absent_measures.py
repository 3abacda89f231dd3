"""A figure is the answer only when it measures the asked thing: evidence that states other
limits and never mentions what the question's limit is on leaves the question unanswered."""

from __future__ import annotations

from agents.closing import absent_measures
from agents.models import EvidenceBundle, EvidenceItem
from reader.question import analyse


def _evidence(*texts: str, title: str = "Harbour Permit Rules") -> EvidenceBundle:
    return EvidenceBundle(
        items=[
            EvidenceItem(chunk_id=f"c{n}", doc_id=f"d{n}", doc_title=title, text=t, score=1.0)
            for n, t in enumerate(texts)
        ]
    )


EVIDENCE = _evidence(
    "The mooring limit for a Harbour Permit is 12 metres of hull length.",
    "Fuel stored on board counts towards this limit's safety check, but ropes do not.",
    "The application fee for a Harbour Permit is £45.",
)


def test_a_limit_asks_for_a_figure() -> None:
    assert analyse("What is the Harbour Permit limit on engine power?")[0].kind == "NUMBER"
    assert analyse("What is the minimum age for a Harbour Permit?")[0].kind == "NUMBER"


def test_a_figure_about_something_the_evidence_never_mentions() -> None:
    asked = "What is the Harbour Permit limit on engine power?"
    assert absent_measures(asked, EVIDENCE) == ["engine", "power"]


def test_a_figure_whose_measure_the_evidence_states() -> None:
    assert absent_measures("What is the mooring limit for a Harbour Permit?", EVIDENCE) == []
    # Other forms of the same words count: "fees", "applications".
    assert absent_measures("How much are the application fees for the permit?", EVIDENCE) == []


def test_only_figures_are_checked_for_their_measure() -> None:
    # "Who ..." is often answered in other words; its relation words are not required.
    assert absent_measures("Who approves Harbour Permit renewals?", EVIDENCE) == []


def test_a_tool_result_holds_the_measure_it_worked_out() -> None:
    asked = "How much headroom does the permit have under the mooring limit?"
    assert absent_measures(asked, EVIDENCE) == ["headroom"]
    worked = ["12 metres is 2 metres under the limit: headroom 2 metres."]
    assert absent_measures(asked, EVIDENCE, worked) == []


def test_the_word_of_how_large_is_the_form_of_the_question() -> None:
    assert absent_measures("How large is the application fee?", EVIDENCE) == []
