"""LLM-extracted facts written to both stores: one small document ingested with the real local
model into the embedded store, then from the LLM cache into Neo4j, gives the same graph."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.settings import Settings
from llm import LlmSettings
from retrieval.embedder import SentenceTransformerEmbedder
from tests import stores
from tests.integration.sync.conftest import fingerprint

TEXT = (
    "Dr Amara Osei is the chief executive of Northdale Mental Health Trust (NMHT). "
    "NMHT is a member of the Northdale Health and Care Partnership."
)


@pytest.mark.neo4j
@pytest.mark.usefixtures("neo4j_server")
def test_llm_extracted_graph_is_the_same_on_both_stores(
    local_llm: LlmSettings, embedder: SentenceTransformerEmbedder, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "trust.md").write_text(f"# Northdale staff\n\n{TEXT}\n", encoding="utf-8")
    data_dir = tmp_path / "kg"  # one data dir, hence one LLM cache, for both stores
    graphs, requests, failed = {}, {}, {}
    for kind in ("embedded", "neo4j"):
        if kind == "neo4j":
            stores.empty_neo4j()
        settings = Settings(data_dir=data_dir, llm=local_llm, **stores.overrides(kind))
        with stores.opened(settings, embedder) as c:
            ingestor = c.ingestor()
            assert "llm:" in ingestor.extractor_version
            report = ingestor.ingest_paths([folder])
            assert report.written == 1 and report.failed == [], report
            requests[kind] = report.llm_requests
            failed[kind] = report.llm_failed_chunks
            graphs[kind] = fingerprint(c.store)
    stores.empty_neo4j()
    assert requests["embedded"] == 1 and graphs["embedded"]["counts"]["entities"] > 0
    if failed["embedded"]:  # a cut-off reply is not cached: the second ingest asked again
        return
    assert requests["neo4j"] == 0  # the second ingest read the cache
    assert graphs["neo4j"] == graphs["embedded"]
