"""An offline answer read from passages about something else is not a confident answer: asked
who chairs the board of an organisation the documents name but never give a chair for, the
reader's best sentence names another organisation's chair, and the run says its passages
never mention the organisation asked about, at LOW. Invented documents, the real loop."""

from __future__ import annotations

from pathlib import Path

from agents.config import AgentSettings
from agents.orchestrator import answer
from kg.container import Container
from tests.invented import ingest_docs

DOCS = {
    "about-fenmoor-trust.md": (
        "# About the Fenmoor Care Trust\nDate: 2026-02-01\nType: overview\n\n"
        "The Fenmoor Care Trust runs three care homes in Kelby and employs 240 staff. "
        "The trust board is chaired by Ruth Ambler, and its Chief Executive is Tomas Reyland. "
        "The trust was founded in 1998.\n"
    ),
    "kelby-zoo-fees.md": (
        "# Kelby Wildlife Zoo Visitor Fees\nDate: 2026-03-01\nType: price list\n\n"
        "The Kelby Wildlife Zoo charges an entry fee of £12 for each adult visitor. "
        "Children under five enter the Kelby Wildlife Zoo free of charge. "
        "Annual passes cost £60.\n"
    ),
}


def test_a_role_found_only_for_another_organisation_is_not_the_answer(
    container: Container, tmp_path: Path
) -> None:
    ingest_docs(container, tmp_path / "docs", DOCS)
    cfg = AgentSettings(audit_dir=tmp_path / "audit")

    result = answer(container, "Who chairs the board of the Kelby Wildlife Zoo?", settings=cfg)

    # The answer read stands (a bridge the graph did not record is often right), at LOW,
    # and says that its passages never mention what the question names.
    assert result.confidence == "LOW"
    assert result.answer.endswith(
        'never mention "Kelby Wildlife Zoo": it may be about something else.'
    ), result.answer
    assert any("never mention" in g.description for g in result.gaps)

    # The organisation the passage is about gets its answer as before.
    own = answer(container, "Who chairs the board of the Fenmoor Care Trust?", settings=cfg)
    assert own.answer.split("\n\n")[0].startswith("Ruth Ambler"), own.answer
    assert own.confidence != "LOW" and "never mention" not in own.answer
