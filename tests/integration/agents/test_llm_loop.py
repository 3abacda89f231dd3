"""Faults of the agent loop's LLM steps: scripted server, real ``openai`` SDK, the demo graph.

Real replies are tested against the real local model (tests/llm/); here only what a real
server will not do on demand: refuse every request, or cut a reply off at its cap.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from agents.audit import read
from agents.config import AgentSettings
from agents.models import AgenticResult
from agents.orchestrator import answer
from extraction.chunking import split_sentences
from kg.container import Container
from llm import LlmSettings
from llm.openai_compat import OpenAICompatClient
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.agents.conftest import Script, Step, evidence_texts

QUESTION = "What are NMHT's priorities for the next 12 months?"
PLAN: dict[str, Any] = {
    "complexity": "simple",
    "subtasks": [{"description": "the trust's priorities", "query": "NMHT priorities"}],
}


def _ask(
    container: Container,
    settings: AgentSettings,
    *synthesis: Step,
    checked: bool = False,
    question: str = QUESTION,
) -> tuple[Script, AgenticResult]:
    """QUESTION through the loop against a scripted server: the plan, then ``synthesis``'s
    replies in turn (and, ``checked``, the LLM checker passing the answer); no SDK retries."""
    verifier = [Reply.json({"problems": [], "supported": True})] if checked else []
    script = Script(planner=[Reply.json(PLAN)], synthesis=list(synthesis), verifier=verifier)
    with FakeOpenAIServer(responder=script) as server:
        llm = OpenAICompatClient(LlmSettings(base_url=server.base_url, model="m", max_retries=0))
        return script, answer(container, question, llm=llm, settings=settings)


def test_llm_down_falls_back_and_says_so(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    secret = "sk-test-do-not-log"
    settings = demo_container.settings.model_copy(update={"llm": LlmSettings(api_key=secret)})
    container = dataclasses.replace(demo_container, settings=settings)
    with FakeOpenAIServer(responder=lambda body: Reply.error(503)) as server:
        llm = OpenAICompatClient(
            LlmSettings(base_url=server.base_url, model="m", api_key=secret, max_retries=1)
        )
        result = answer(container, QUESTION, llm=llm, settings=agent_settings)
    assert server.count == 4  # planner and synthesis, each tried twice by the SDK
    assert result.mode == "llm-failed" and result.confidence != "HIGH"
    assert result.plan is not None and result.plan.source == "offline" and result.citations
    assert result.note.startswith("The LLM step failed")
    events = read(Path(result.audit_log))
    retries = [e["step"] for e in events if e["event"] == "llm_retry"]
    assert retries == ["planner", "synthesis"]  # every retry is in the audit log
    errors = [e for e in events if e["event"] == "llm_error"]
    assert [e["attempts"] for e in errors] == [2, 2]
    assert secret not in Path(result.audit_log).read_text(encoding="utf-8")


def test_a_cut_off_synthesis_is_not_resent_and_caps_confidence(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    script, result = _ask(demo_container, agent_settings, Reply.cut_off(tokens=1000))
    assert len(script.calls["synthesis"]) == 1  # a cut-off reply is never "repaired"
    assert result.mode == "llm-failed" and result.confidence != "HIGH"
    assert "cap of" in result.note
    body = script.calls["synthesis"][0]
    assert body["response_format"]["type"] == "json_schema"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    events = read(Path(result.audit_log))
    assert any(e["event"] == "llm_error" and e["kind"] == "LlmCutOff" for e in events)


def _fact(text: str, citation: str) -> dict[str, Any]:
    return {"text": text, "kind": "FACT", "citations": [citation]}


def _synthesis(answer: str, findings: list[dict[str, Any]]) -> Reply:
    """A synthesis reply of the shape the model is asked for, claiming HIGH confidence."""
    return Reply.json(
        {
            "tool_calls": [],
            "answer": answer,
            "findings": findings,
            "confidence": "HIGH",
            "reason": "The evidence says so.",
        }
    )


def _label_only(body: dict[str, Any]) -> Reply:
    """What the 0.5B model wrote on most benchmark questions: the evidence header as the
    answer, the content in a finding."""
    chunk_id, text = next(iter(evidence_texts(body).items()))
    words = " ".join(text.split()[:12])
    finding = _fact(words, f"[{chunk_id}] (PRIMARY; x)")
    return _synthesis(f"[{chunk_id}] (PRIMARY; Some title (2024 plan))", [finding])


def test_an_answer_of_citations_only_becomes_its_findings(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    script, result = _ask(demo_container, agent_settings, _label_only, _label_only)
    # Flagged, refined once (the same again), then the findings are the answer.
    assert len(script.calls["synthesis"]) == 2
    refine = script.calls["synthesis"][1]["messages"][-1]["content"]
    assert "states nothing but citations" in refine
    assert result.mode == "llm" and result.findings
    assert result.findings[0].text.split()[0] in result.answer
    assert "PRIMARY" not in result.answer
    assert result.confidence != "HIGH"
    assert any("only citations" in w for w in result.warnings)


def _echo(body: dict[str, Any]) -> Reply:
    """What the 0.5B model wrote when asked to correct an answer: the request itself."""
    return _synthesis("The answer states nothing but citations: write the answer in words", [])


def test_a_refinement_that_repeats_the_request_is_refused(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    script, result = _ask(demo_container, agent_settings, _label_only, _echo)
    assert len(script.calls["synthesis"]) == 2
    # The first reply's findings stand as the answer; the echo is nowhere in it.
    assert "write the answer in words" not in result.answer
    assert result.findings and result.findings[0].text.split()[0] in result.answer
    assert any("repeats the checker's request" in w for w in result.warnings)
    assert result.confidence != "HIGH"


def _citations_only(body: dict[str, Any]) -> Reply:
    """The 0.5B model's answer on several benchmark questions: one chunk id, no findings."""
    return _synthesis(f"[{next(iter(evidence_texts(body)))}] (PRIMARY; Some title)", [])


def test_an_answer_of_citations_without_findings_falls_back_to_the_extractive_one(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    script, result = _ask(demo_container, agent_settings, _citations_only, _citations_only)
    assert len(script.calls["synthesis"]) == 2  # refined once, still citations only
    assert result.mode == "llm-failed" and result.confidence != "HIGH"
    assert "only citations and no findings" in result.note
    # The extractive answer quotes the evidence in words, with its citations.
    assert result.findings and result.citations and "PRIMARY" not in result.answer


def _quoting_first(body: dict[str, Any]) -> Reply:
    """A correct reply: the first sentence of the first evidence chunk, quoted and cited."""
    chunk_id, text = next(iter(evidence_texts(body).items()))
    sentence = text.split(". ")[0].strip().rstrip(".")
    finding = _fact(sentence, chunk_id)
    return _synthesis(f'The evidence says "{sentence}" [{chunk_id}].', [finding])


def test_the_model_reads_the_best_sentences_of_each_chunk(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    settings = agent_settings.model_copy(update={"synthesis_sentences": 6})
    script, result = _ask(demo_container, settings, _quoting_first, checked=True)
    shown = evidence_texts(script.calls["synthesis"][0])
    whole = {h.chunk_id: h.text for h in demo_container.store.get_chunks(list(shown))}
    assert shown and set(shown) <= set(result.used_chunk_ids)
    for chunk_id, text in shown.items():
        # Sentences of the chunk, verbatim; never more than the chunk.
        assert all(s in whole[chunk_id] for s in split_sentences(text))
    assert sum(map(len, shown.values())) < sum(map(len, whole.values()))
    # The priorities the question asks for are among what the model reads.
    assert "Priority one" in " ".join(shown.values())
    events = [e for e in read(Path(result.audit_log)) if e["event"] == "focus"]
    assert events and events[0]["characters"][1] < events[0]["characters"][0]
    assert result.mode == "llm" and result.citations

    full = agent_settings.model_copy(update={"synthesis_sentences": 0})
    script, _ = _ask(demo_container, full, _quoting_first, checked=True)
    shown = evidence_texts(script.calls["synthesis"][0])
    whole = {h.chunk_id: h.text for h in demo_container.store.get_chunks(list(shown))}
    assert {k: v.strip() for k, v in shown.items()} == {k: v.strip() for k, v in whole.items()}


def _echo_in_finding(body: dict[str, Any]) -> Reply:
    """Seen on a MuSiQue question: citations as the answer, the request as the finding."""
    chunk_id = next(iter(evidence_texts(body)))
    request = "The answer states nothing but citations: write the answer in words"
    return _synthesis(f"[{chunk_id}]", [_fact(request, chunk_id)])


def test_a_finding_that_repeats_the_request_is_dropped(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    script, result = _ask(demo_container, agent_settings, _citations_only, _echo_in_finding)
    assert len(script.calls["synthesis"]) == 2
    # Nothing of the model's is left to answer with: the extractive answer is given.
    assert result.mode == "llm-failed" and result.confidence != "HIGH"
    assert "write the answer in words" not in result.answer
    assert all("write the answer in words" not in f.text for f in result.findings)


def test_the_model_s_high_stands_only_where_the_offline_checks_allow_it(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    # The offline answer to this one is HIGH: the model's HIGH stands.
    direct = "Who is the chief executive of NMHT?"
    offline = answer(demo_container, direct, settings=agent_settings)
    assert offline.confidence == "HIGH"
    _, result = _ask(demo_container, agent_settings, _quoting_first, checked=True, question=direct)
    assert result.mode == "llm" and result.verifier and result.verifier.passed
    assert result.confidence == "HIGH"
    # A subject reached through another ("the trust that ...") is a chain the checks cannot
    # follow: the model's HIGH becomes MEDIUM, and the reason says why.
    chain = "What are the priorities of the trust that runs the Brackenford unit?"
    _, result = _ask(demo_container, agent_settings, _quoting_first, checked=True, question=chain)
    assert result.mode == "llm" and result.verifier and result.verifier.passed
    assert result.confidence == "MEDIUM"
    assert "Capped at MEDIUM" in result.reason
    # A name no document holds: whatever the model says, the documents do not answer it.
    absent = "What are the priorities of the trust that runs the Riverside ward?"
    _, result = _ask(demo_container, agent_settings, _quoting_first, checked=True, question=absent)
    assert result.confidence == "LOW"
    assert result.answer.startswith("The documents do not answer this question")
    assert any(g.category == "missing_fact" and "Riverside" in g.description for g in result.gaps)
