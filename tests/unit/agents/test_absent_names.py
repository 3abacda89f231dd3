"""A name the evidence never mentions makes the question unanswered; a misspelt one does not."""

from __future__ import annotations

from agents.closing import absent_names
from agents.models import EvidenceBundle, EvidenceItem


def _evidence(*texts: str) -> EvidenceBundle:
    return EvidenceBundle(
        items=[
            EvidenceItem(chunk_id=f"c{n}", doc_id=f"d{n}", doc_title="Notes", text=t, score=1.0)
            for n, t in enumerate(texts)
        ]
    )


def test_names_the_evidence_never_mentions() -> None:
    evidence = _evidence("Jane Doe is the chief executive of Brightwater Trust.")
    assert absent_names("Who is the chief executive of Brightwater Trust?", evidence) == []
    assert absent_names("Who is the chief executive of the Brightwater Zoo?", evidence) == ["Zoo"]


def test_a_misspelt_long_name_is_still_held() -> None:
    evidence = _evidence("The club was founded in Gothenburg in 1904.")
    assert absent_names("When was the club in Gothenberg founded?", evidence) == []
