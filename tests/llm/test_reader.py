"""The LLM reader with the real local model, over a small invented corpus: the model reads only
the numbered sentences, and the answer it gives comes out cited, with its supporting sentences
quoted verbatim and checked. Asserts structure and citations, never the model's wording."""

from __future__ import annotations

from pathlib import Path

from agents.audit import read
from agents.config import AgentSettings
from agents.orchestrator import answer
from kg.container import Container
from llm.openai_compat import OpenAICompatClient
from retrieval.embedder import SentenceTransformerEmbedder
from tests.invented import rules_graph

FILM = """# The Quiet Harbour

The Quiet Harbour is a 1998 drama film set on the Baltic coast. The film was directed by
Marta Kowal and produced by a small studio in Gdynia. It won a prize at a festival in 1999.
"""
DIRECTOR = """# Marta Kowal

Marta Kowal is a Polish film director and screenwriter. She was born in Gdansk in 1961 and
studied at the film school in Lodz. Her later films were shot in Warsaw.
"""


def film_graph(tmp_path: Path, embedder: SentenceTransformerEmbedder) -> Container:
    """The two invented documents ingested into an open store, by the rules: the model's one
    call in these tests is the answerer's."""
    return rules_graph(tmp_path, embedder, {"film.md": FILM, "director.md": DIRECTOR})


def test_the_reader_answers_with_cited_sentences_of_the_evidence(
    client: OpenAICompatClient, embedder: SentenceTransformerEmbedder, tmp_path: Path
) -> None:
    container = film_graph(tmp_path, embedder)
    cfg = AgentSettings(audit_dir=tmp_path / "audit", llm_answerer="reader", max_iterations=1)

    result = answer(
        container,
        "In which city was the director of The Quiet Harbour born?",
        llm=client,
        settings=cfg,
    )

    asked = [e["step"] for e in read(Path(result.audit_log)) if e["event"] == "llm_request"]
    assert asked == ["reader"], "the reader's model only reads: no planner, no verifier call"
    assert result.mode in ("llm", "llm-failed")
    assert result.verifier is not None
    if result.mode == "llm-failed":
        assert "LLM step failed" in result.note and result.confidence != "HIGH"
        return
    lead = result.answer.split("\n\n")[0]
    assert "[" in lead and result.citations, "the short answer is cited"
    assert {c.chunk_id for c in result.citations} <= set(result.used_chunk_ids)
    texts = {c.chunk_id: c.text for c in container.store.get_chunks(result.used_chunk_ids)}
    for f in result.findings:
        (cited,) = f.citations
        assert " ".join(f.text.split()) in " ".join(texts[cited].split())
    assert result.verifier.passed
    assert result.tokens.get("reader", 0) > 0
    container.store.close()
