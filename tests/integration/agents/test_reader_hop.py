"""The reader's hop (``agents.reader_hop``) on an invented graph: the question the evidence
lets the reader rewrite is retrieved, and answered from what it brings."""

from __future__ import annotations

from pathlib import Path

from agents.config import AgentSettings
from agents.orchestrator import answer
from retrieval.embedder import SentenceTransformerEmbedder
from tests.invented import rules_graph

DOCS = {
    "ann-lee.md": "# Ann Lee\n\nAnn Lee is a painter. She was born in Varn, a town in Ostland.\n",
    "ostland.md": (
        "# Ostland\n\nOstland is a small republic on the coast. From 1990 to 2004 the "
        "republic was led by President Tom Hale, a former judge.\n"
    ),
    "harbour-guild.md": (
        "# Harbour Guild\n\nThe Harbour Guild of painters was led by Brook Hale, who was "
        "born in a country village and painted the coast.\n"
    ),
}
QUESTION = "Who led the country where Ann Lee was born?"


def test_the_rewritten_question_is_retrieved_and_answered(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    container = rules_graph(tmp_path, embedder, DOCS)
    # One passage a query, one round, no graph expansion: the loop holds Ann Lee's page.
    cfg = AgentSettings(
        audit_dir=tmp_path / "audit",
        k_per_query=1,
        iterations_simple=1,
        role_extra_rounds=0,
        max_gap_queries=0,
        neighbour_subtasks=0,
    )
    try:
        result = answer(container, QUESTION, settings=cfg)
        off = answer(container, QUESTION, settings=cfg.model_copy(update={"reader_hop_queries": 0}))
    finally:
        container.store.close()

    hops = [t for t in result.plan.subtasks if t.origin == "hop"]
    assert hops == [], "the hop is no planned sub-task"
    assert result.answer.startswith("Tom Hale"), result.answer[:160]
    assert "ostland" in {c.document_title.lower() for c in result.citations}
    assert not off.answer.startswith("Tom Hale"), off.answer[:160]
    log = Path(result.audit_log).read_text()
    assert '"origin": "hop"' in log and "Who led Ostland?" in log
