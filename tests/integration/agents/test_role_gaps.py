"""The role fillers the evidence names without their pages, on an invented graph."""

from __future__ import annotations

from pathlib import Path

from agents.config import AgentSettings
from agents.graph_reach import GraphReach
from agents.models import EvidenceItem
from agents.orchestrator import answer
from agents.role_gaps import role_fillers
from kg.container import Container
from retrieval.embedder import SentenceTransformerEmbedder
from tests.invented import ingest_docs, rules_graph

DOCS = {
    "sea-glass.md": (
        "# Sea Glass\n\nSea Glass is a 1962 drama film directed by Marta Kowal and starring "
        "Otto Brenner. The film was shot in Gdansk.\n"
    ),
    "marta-kowal.md": (
        "# Marta Kowal\n\nMarta Kowal (4 May 1931 – 9 March 1999) was a Polish film director.\n"
    ),
    "otto-brenner.md": "# Otto Brenner\n\nOtto Brenner (1930 – 2001) was a German actor.\n",
}


def _items(container: Container, titles: set[str]) -> list[EvidenceItem]:
    model = container.searcher().model
    hits = container.searcher().retrieve("Sea Glass Marta Kowal Otto Brenner", 10, "dense")
    chunks = model.chunk_details([r.chunk_id for r in hits.results], [0.0] * 384)
    return [
        EvidenceItem(chunk_id=c, doc_id=d.doc_id, doc_title=d.doc_title, text=d.text, score=1.0)
        for c, d in chunks.items()
        if d.doc_title in titles
    ]


def test_the_page_of_whoever_fills_the_asked_role_is_asked_for(
    container: Container, tmp_path: Path
) -> None:
    ingest_docs(container, tmp_path / "docs", DOCS)
    reach = GraphReach(container.searcher().model, {})
    question = "When did the director of the film Sea Glass die?"

    film_only = _items(container, {"Sea Glass"})
    assert [n for _, n in role_fillers(question, film_only, reach)] == ["Marta Kowal"]
    # The actor fills no asked role; once the director's page is held nothing is missing.
    both = _items(container, {"Sea Glass", "Marta Kowal"})
    assert role_fillers(question, both, reach) == []
    assert role_fillers("When was the film Sea Glass shot?", film_only, reach) == []


def test_a_one_round_question_gets_a_round_for_the_roles_page(
    tmp_path: Path, embedder: SentenceTransformerEmbedder
) -> None:
    container = rules_graph(tmp_path, embedder, DOCS)
    # One passage a query: the first round holds the film's page only.
    cfg = AgentSettings(audit_dir=tmp_path / "audit", k_per_query=1, iterations_simple=1)
    question = "When did the director of the film Sea Glass die?"
    try:
        result = answer(container, question, settings=cfg)
        # Without the added round the run stops with the film's page alone.
        no_extra = cfg.model_copy(update={"role_extra_rounds": 0})
        alone = answer(container, question, settings=no_extra)
    finally:
        container.store.close()

    assert len(result.rounds) == 2, result.rounds
    assert "Marta Kowal" in " ".join(result.rounds[1].queries)
    lead = result.answer.split("\n")[0]
    assert "March 1999" in lead, result.answer[:120]
    assert len(alone.rounds) == 1 and "March 1999" not in alone.answer.split("\n")[0]
