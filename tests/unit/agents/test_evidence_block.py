"""What the model reads of each chunk: id, tier, title and the document's date, type and
subject, so it can weigh how recent a source is and whose view it gives."""

from __future__ import annotations

from agents.models import EvidenceBundle, EvidenceItem
from agents.verifier import evidence_block


def test_headers_carry_date_type_and_subject_and_omit_what_is_unknown() -> None:
    bundle = EvidenceBundle(
        items=[
            EvidenceItem(
                chunk_id="c1",
                doc_id="d1",
                doc_title="Acme Annual Plan",
                text="We will grow.",
                score=1.0,
                tag="PRIMARY",
                doc_date="2026-03-05",
                doc_type="annual plan",
                subject="Acme Group",
            ),
            EvidenceItem(
                chunk_id="c2",
                doc_id="d2",
                doc_title="Ada Lovelace",
                text="A.",
                score=0.5,
                subject="Ada Lovelace",
            ),
        ]
    )
    assert evidence_block(bundle) == (
        "[c1] (PRIMARY; Acme Annual Plan; 2026-03-05; annual plan; about Acme Group)\n"
        "We will grow.\n\n[c2] (GENERAL; Ada Lovelace)\nA."
    )
