"""Typed gaps: time horizons, coverage, source dominance, recency, missing facts."""

from __future__ import annotations

from agents.config import AgentSettings
from agents.gaps import evidence_gaps, fact_gaps, gaps_note, horizon, next_questions
from agents.models import EvidenceItem, LinkedEntity
from reader.reading import PartAnswer

CFG = AgentSettings(reference_date="2030-06-30")


def _item(chunk: str, doc: str, date: str = "", title: str = "") -> EvidenceItem:
    return EvidenceItem(
        chunk_id=chunk,
        doc_id=doc,
        doc_title=title or f"Title of {doc}",
        text="Some text.",
        score=1.0,
        doc_date=date,
    )


def _query(name: str) -> str:
    return f"{name}: q"


def test_horizon_from_the_question_words() -> None:
    assert horizon("What is planned for 2031/32?", CFG) == (
        "2030-01-01",
        "the question asks about 2031/32",
    )
    start, why = horizon("What are the latest figures?", CFG) or ("", "")
    assert start == "2029-06-30" and "latest" in why
    assert horizon("What will happen in the next 12 months?", CFG) is not None
    assert horizon("What did the council decide in 2029?", CFG) == (
        "2028-01-01",
        "the question asks about 2029",
    )
    assert horizon("Who chairs the board?", CFG) is None


def test_recency_gap_when_every_dated_source_is_older_than_the_horizon() -> None:
    old = [_item("c1", "d1", "2027-03-01"), _item("c2", "d2", "2028-01-01")]
    gaps = evidence_gaps("What are the latest priorities?", old, [], set(), CFG, _query)
    recency = [g for g in gaps if g.category == "recency"]
    assert len(recency) == 1 and recency[0].severity == "high"
    assert "2028-01-01" in recency[0].description and recency[0].query
    fresh = [*old, _item("c3", "d3", "2030-02-01")]
    gaps = evidence_gaps("What are the latest priorities?", fresh, [], set(), CFG, _query)
    assert not [g for g in gaps if g.category == "recency"]
    # Undated evidence is not judged.
    undated = [_item("c1", "d1"), _item("c2", "d2")]
    gaps = evidence_gaps("What are the latest priorities?", undated, [], set(), CFG, _query)
    assert not [g for g in gaps if g.category == "recency"]


def test_dominance_coverage_and_unmentioned_entities() -> None:
    one_doc = [_item(f"c{i}", "d1", title="Acme Annual Plan") for i in range(3)]
    gaps = evidence_gaps("What does Acme plan for rail?", one_doc, [], set(), CFG, _query)
    assert [g.category for g in gaps] == ["coverage"]  # one source: nothing to dominate
    mixed = [*one_doc, _item("c9", "d2")]
    acme = LinkedEntity(entity_id="e1", name="Acme Group", score=1.0, method="alias")
    gaps = evidence_gaps("What does Acme plan for rail?", mixed, [acme], set(), CFG, _query)
    kinds = {g.category: g for g in gaps}
    assert "75%" in kinds["source_dominance"].description
    assert "Acme Annual Plan" in kinds["source_dominance"].description
    assert kinds["source_dominance"].query.startswith("Acme Group")
    assert kinds["coverage"].description == "no evidence mentions Acme Group"
    assert kinds["coverage"].query == "Acme Group: q"
    gaps = evidence_gaps("What does Acme plan for rail?", mixed, [acme], {"e1"}, CFG, _query)
    assert not [g for g in gaps if g.category == "coverage"]


def test_missing_facts_become_gaps_and_next_questions() -> None:
    parts = [
        PartAnswer("how many beds are there", "NUMBER", False, None, None),
        PartAnswer("who leads it", "PERSON", True, "A leads it.", "c1"),
    ]
    gaps = fact_gaps(parts)
    assert len(gaps) == 1 and gaps[0].category == "missing_fact"
    assert gaps[0].severity == "medium" and "figure" in gaps[0].description
    assert fact_gaps(parts[:1])[0].severity == "high"
    questions = next_questions(gaps)
    assert questions == ['Which document states "how many beds are there"?']
    note = gaps_note(gaps)
    assert "missing_fact" in note and "do not fill it in" in note
    assert gaps_note([]) == ""
