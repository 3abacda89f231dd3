"""The report answerer (the default LLM answerer) with the real local model, over the reader
test's invented corpus: the offline report is written first and the model's one call can only
add to it (a cited lead, next questions). Asserts structure and citations, never wording."""

from __future__ import annotations

from pathlib import Path

from agents.audit import read
from agents.config import AgentSettings
from agents.orchestrator import answer
from llm.openai_compat import OpenAICompatClient
from retrieval.embedder import SentenceTransformerEmbedder
from tests.integration.agents.test_numeric_compare import DOCS as DEPOTS
from tests.integration.agents.test_off_subject import DOCS as ZOO
from tests.invented import rules_graph
from tests.llm.test_reader import film_graph

QUESTION = "In which city was the director of The Quiet Harbour born?"


def test_the_report_answerer_keeps_the_offline_report_and_only_adds(
    client: OpenAICompatClient, embedder: SentenceTransformerEmbedder, tmp_path: Path
) -> None:
    container = film_graph(tmp_path, embedder)
    cfg = AgentSettings(audit_dir=tmp_path / "audit", max_iterations=1)
    assert cfg.llm_answerer == "report"  # the default
    try:
        offline = answer(container, QUESTION, settings=cfg)
        result = answer(container, QUESTION, llm=client, settings=cfg)
    finally:
        container.store.close()

    asked = [e["step"] for e in read(Path(result.audit_log)) if e["event"] == "llm_request"]
    assert asked == ["report"], "one short call: no planner, no synthesis"
    assert result.mode in ("llm", "llm-failed")
    # Whatever the model wrote, the offline answer and its citations are all still there.
    assert offline.answer in result.answer
    assert {c.chunk_id for c in offline.citations} <= {c.chunk_id for c in result.citations}
    assert {f.text for f in offline.findings} <= {f.text for f in result.findings}
    assert {c.chunk_id for c in result.citations} <= set(result.used_chunk_ids)
    if result.answer != offline.answer:  # a lead was kept: cited, checked
        lead = result.answer.split("\n\n")[0]
        assert "[" in lead and result.verifier is not None and result.verifier.passed
    assert all(q.endswith("?") for q in result.recommendations)
    assert result.tokens.get("report", 0) > 0 or result.mode == "llm-failed"


def test_a_comparison_the_tools_decided_keeps_the_tools_lead(
    client: OpenAICompatClient, embedder: SentenceTransformerEmbedder, tmp_path: Path
) -> None:
    """Numbers are the tools' arithmetic: with a comparison worked out from the stored figures,
    the model's short answer never goes above the tools' winner (whatever it wrote)."""
    question = "Which depot plans the larger income, Brackley Depot or Fenwick Depot?"
    cfg = AgentSettings(audit_dir=tmp_path / "audit", max_iterations=1)
    container = rules_graph(tmp_path, embedder, DEPOTS)
    try:
        result = answer(container, question, llm=client, settings=cfg)
    finally:
        container.store.close()

    record = next(t for t in result.tool_calls if t.name == "compare_amounts")
    assert result.answer.startswith(f"{record.result['winner']} ["), result.answer
    kept = [e for e in read(Path(result.audit_log)) if e["event"] == "report_lead"]
    assert all(not e["kept"] for e in kept)


def test_an_answer_read_off_subject_gets_no_model_lead(
    client: OpenAICompatClient, embedder: SentenceTransformerEmbedder, tmp_path: Path
) -> None:
    """Asked for a role of an organisation the documents never give it for, the best sentence
    names another organisation's holder of that role: the report stays the offline one, at
    LOW with its caveat, and the model's short answer (read from the same sentences) does not
    go above it as if it answered."""
    question = "Who chairs the board of the Kelby Wildlife Zoo?"
    cfg = AgentSettings(audit_dir=tmp_path / "audit", max_iterations=1)
    container = rules_graph(tmp_path, embedder, ZOO)
    try:
        offline = answer(container, question, settings=cfg)
        result = answer(container, question, llm=client, settings=cfg)
    finally:
        container.store.close()

    assert offline.confidence == result.confidence == "LOW"
    assert result.answer == offline.answer, result.answer
    assert result.answer.endswith("it may be about something else.")
    kept = [e for e in read(Path(result.audit_log)) if e["event"] == "report_lead"]
    assert all(not e["kept"] for e in kept)
