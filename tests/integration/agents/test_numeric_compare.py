"""A question comparing two options' amounts is answered by the tools from the graph's numeric
facts: the winner leads, cited to both figures' chunks, with both figures and the difference;
a compare_amounts record is in the run. Invented documents, the real loop, offline."""

from __future__ import annotations

from pathlib import Path

from agents.config import AgentSettings
from agents.orchestrator import answer
from kg.container import Container
from tests.invented import ingest_docs

DOCS = {
    "brackley-depot.md": (
        "# Brackley Depot Annual Review 2026\nDate: 2026-04-01\nType: annual review\n\n"
        "Brackley Depot handled 48,200 parcels in March. "
        "For 2026 the depot plans income of £12.4m and spending of £11.9m.\n"
    ),
    "fenwick-depot.md": (
        "# Fenwick Depot Annual Review 2026\nDate: 2026-04-02\nType: annual review\n\n"
        "Fenwick Depot handled 51,900 parcels in March. "
        "For 2026 the depot plans income of £9.7m and spending of £9.9m.\n"
    ),
}


def test_the_larger_and_the_smaller_amount_are_worked_out_by_the_tools(
    container: Container, tmp_path: Path
) -> None:
    ingest_docs(container, tmp_path / "docs", DOCS)
    cfg = AgentSettings(audit_dir=tmp_path / "audit")

    result = answer(
        container,
        "Which depot plans the larger income, Brackley Depot or Fenwick Depot?",
        settings=cfg,
    )
    lead, _, rest = result.answer.partition("\n\n")
    assert lead.startswith("Brackley Depot ["), result.answer
    assert "£12.4m against £9.7m for Fenwick Depot" in rest
    record = next(t for t in result.tool_calls if t.name == "compare_amounts")
    assert record.result["winner"] == "Brackley Depot"
    cited = {c.chunk_id for c in result.citations}
    assert set(record.result["chunk_ids"]) <= cited
    assert result.confidence != "LOW"

    fewer = answer(
        container,
        "Which depot handled fewer parcels, Brackley Depot or Fenwick Depot?",
        settings=cfg,
    )
    assert fewer.answer.startswith("Brackley Depot ["), fewer.answer
    assert "48,200" in fewer.answer and "51,900" in fewer.answer
