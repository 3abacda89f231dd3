"""Faults of the LLM reader: scripted server, real ``openai`` SDK, the demo graph. What the real
model does is tested in tests/llm/test_reader.py; here only replies a real server will not give
on demand: no answer, and an answer that none of the sentences it names holds."""

from __future__ import annotations

from pathlib import Path

from agents.audit import read
from agents.config import AgentSettings
from agents.models import AgenticResult
from agents.orchestrator import answer
from kg.container import Container
from llm import LlmSettings
from llm.openai_compat import OpenAICompatClient
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.agents.conftest import Script

QUESTION = "What are NMHT's priorities for the next 12 months?"


def _read(container: Container, settings: AgentSettings, reply: Reply) -> AgenticResult:
    script = Script(reader=[reply])
    cfg = settings.model_copy(update={"llm_answerer": "reader"})
    with FakeOpenAIServer(responder=script) as server:
        llm = OpenAICompatClient(LlmSettings(base_url=server.base_url, model="m", max_retries=0))
        result = answer(container, QUESTION, llm=llm, settings=cfg)
    assert server.count == 1, "the reader's one call; the plan stays deterministic"
    return result


def test_no_answer_from_the_model_falls_back_to_the_extractive_answer(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    offline = answer(demo_container, QUESTION, settings=agent_settings)
    result = _read(
        demo_container, agent_settings, Reply.json({"answer": "unknown", "sentences": []})
    )
    assert result.mode == "llm-failed" and result.note.startswith("The LLM step failed")
    assert result.answer == offline.answer and result.confidence != "HIGH"
    events = read(Path(result.audit_log))
    assert [e["step"] for e in events if e["event"] == "fallback"] == ["reader"]


def test_an_answer_its_sentences_do_not_hold_is_low_confidence(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    reply = Reply.json({"answer": "Twelve new lighthouses", "sentences": [1, 99]})
    result = _read(demo_container, agent_settings, reply)
    assert result.mode == "llm" and result.confidence == "LOW"
    lead, _, body = result.answer.partition("\n\n")
    assert lead.startswith("Twelve new lighthouses [") and body
    (finding,) = result.findings  # sentence 99 was not shown: dropped
    assert result.verifier is not None and result.verifier.passed
    assert {c.chunk_id for c in result.citations} == set(finding.citations)
