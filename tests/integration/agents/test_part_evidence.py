"""A question of two parts retrieves for each part after the rounds, and those retrievals are
in the audit log and the event stream as a round's are (an analyst reading the iteration log
sees every query that fed the answer)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agents.config import AgentSettings
from agents.orchestrator import answer
from retrieval.embedder import SentenceTransformerEmbedder
from tests.invented import rules_graph

DOCS = {
    "fleet.md": "# Fleet plan\n\nThe Harbour Board will buy 12 ferries for the Eastmere route.\n",
    "staff.md": "# Staff plan\n\nThe Harbour Board will hire 40 drivers for its new buses.\n",
}
QUESTION = "How many ferries will the Harbour Board buy and how many drivers will it hire?"


def test_each_part_is_retrieved_audited_and_streamed(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    container = rules_graph(tmp_path, embedder, DOCS)
    events: list[tuple[str, dict[str, Any]]] = []
    cfg = AgentSettings(audit_dir=tmp_path / "audit", iterations_simple=1, role_extra_rounds=0)
    try:
        result = answer(
            container, QUESTION, settings=cfg, on_event=lambda k, d: events.append((k, d))
        )
    finally:
        container.store.close()

    logged = [json.loads(line) for line in Path(result.audit_log).read_text().splitlines()]
    parts = {e["subtask"]: e for e in logged if e["event"] == "retrieval"}
    assert {"part0", "part1"} <= set(parts), sorted(parts)
    assert "ferries" in parts["part0"]["query"] and "drivers" in parts["part1"]["query"]
    assert parts["part1"]["results"], "the second part found its passage"
    streamed = {d.get("subtask") for kind, d in events if kind == "retrieval"}
    assert {"part0", "part1"} <= streamed
