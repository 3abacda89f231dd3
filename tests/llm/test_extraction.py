"""LLM extraction of one small passage by the real model: schema, passage and direction
guards, counts and the journal."""

from __future__ import annotations

import json
from pathlib import Path

from extraction.config import ExtractionSettings
from extraction.llm_cache import LlmCache
from extraction.llm_extractor import LlmExtractor
from extraction.spacy_rules import SpacyRuleExtractor
from llm.journal import Journal
from llm.openai_compat import OpenAICompatClient

PASSAGE = (
    "Dr Amara Osei is the chief executive of Northdale Mental Health Trust (NMHT). "
    "NMHT is a member of the Northdale Health and Care Partnership."
)


def test_extraction_keeps_only_what_the_passage_and_schema_allow(
    client: OpenAICompatClient, tmp_path: Path
) -> None:
    cfg = ExtractionSettings()
    journal = Journal(tmp_path / "audit" / "extraction.jsonl")
    extractor = LlmExtractor(
        SpacyRuleExtractor(), client, LlmCache(tmp_path / "cache"), cfg, journal
    )
    [facts] = extractor.extract_many([("Northdale staff", [PASSAGE])])
    used = extractor.usage()
    assert used.chunks == 1 and used.requests == 1 and used.retries == 0
    events = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert events[0]["event"] == "llm_request"
    outcome = events[-1]
    if outcome["event"] == "llm_response":  # the model answered within the schema
        assert used.failed_chunks == 0 and used.tokens_out > 0
        assert outcome["finish_reason"] == "stop"
    else:  # a cut-off or refused reply: counted, and the chunk keeps its rule facts
        assert outcome["event"] == "llm_error" and used.failed_chunks == 1
    passage = PASSAGE.lower()
    llm_relations = [r for c in facts.chunks for r in c.relations if "+llm" in r.origin]
    for r in llm_relations:
        assert r.type in cfg.relation_types
        assert facts.surfaces[r.source].lower() in passage
        assert facts.surfaces[r.target].lower() in passage
        source_types = cfg.relation_sources.get(r.type)
        assert not source_types or facts.types.get(r.source) in source_types
    # Cached: a second ingest of the same passage asks nothing.
    extractor.extract_many([("Northdale staff", [PASSAGE])])
    if used.failed_chunks == 0:
        assert extractor.usage().requests == used.requests
