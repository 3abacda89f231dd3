"""The agent loop with an LLM: scripted local server, real ``openai`` SDK, the demo graph."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from agents.audit import read
from agents.config import AgentSettings
from agents.llm import OpenAIChatClient
from agents.orchestrator import answer
from kg.container import Container
from llm.config import LlmSettings
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.agents.conftest import Script, evidence_ids, evidence_texts

QUESTION = "What are NMHT's priorities for the next 12 months?"
THRESHOLD_QUESTION = "Is NMHT meeting its target for out-of-area placements?"
PLAN: dict[str, Any] = {
    "complexity": "moderate",
    "subtasks": [
        {
            "description": "the trust's own priorities",
            "query": "Northdale Mental Health Trust priorities",
        },
        {
            "description": "the partnership plan",
            "query": "Northdale Joint Forward Plan 2026-2031 goals",
        },
    ],
}
SUPPORTED = Reply.json({"supported": True, "problems": []})
MISSING = "doc-0000000000000000-0000-000000000000"


def synthesis(body: dict[str, Any], extra: str = "", confidence: str = "HIGH") -> Reply:
    """A well-formed answer citing the first two evidence chunks the request showed."""
    ids = evidence_ids(body)[:2]
    return Reply.json(
        {
            "answer": f"The trust sets five priorities [{ids[0]}] within the partnership plan "
            f"[{ids[1]}].{extra}",
            "findings": [
                {"text": "Five priorities.", "kind": "FACT", "citations": [ids[0]]},
                {"text": "They serve the plan.", "kind": "INFERENCE", "citations": [ids[1]]},
            ],
            "confidence": confidence,
            "reason": "stated in the trust's own paper",
        }
    )


def client(server: FakeOpenAIServer, **kw: Any) -> OpenAIChatClient:
    return OpenAIChatClient(server.base_url, "fake-model", backoff_s=0.01, **kw)


def run(
    container: Container,
    script: Script,
    cfg: AgentSettings,
    question: str = QUESTION,
    **kw: Any,
) -> tuple[Any, list[tuple[str, dict[str, Any]]], FakeOpenAIServer]:
    events: list[tuple[str, dict[str, Any]]] = []
    with FakeOpenAIServer(responder=script) as server:
        result = answer(
            container,
            question,
            llm=client(server),
            settings=cfg,
            on_event=lambda s, p: events.append((s, p)),
            **kw,
        )
    for step, queue in script.queues.items():
        assert not queue, f"{step} replies left unused"
    return result, events, server


def test_good_plan_drives_retrieval_and_the_answer_is_verified(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    script = Script(planner=[Reply.json(PLAN)], synthesis=[synthesis], verifier=[SUPPORTED])
    result, events, server = run(demo_container, script, agent_settings)
    assert result.mode == "llm" and result.model == "fake-model" and result.note == ""
    assert result.plan.source == "llm" and result.complexity == "moderate"
    assert [t.query for t in result.plan.subtasks] == [
        QUESTION,
        *(t["query"] for t in PLAN["subtasks"]),
    ]
    assert result.plan.subtasks[2].focus_name == "Northdale Joint Forward Plan 2026-2031"
    assert result.verifier.passed and result.verifier.llm_checked
    assert result.confidence == "HIGH" and result.warnings == []
    assert [f.kind for f in result.findings] == ["FACT", "INFERENCE"]
    shown = evidence_ids(script.calls["synthesis"][0])
    assert [c.chunk_id for c in result.citations] == shown[:2]
    assert set(shown) == set(result.used_chunk_ids)
    # Token counts are the server's usage figures, per step (11 + 7 per scripted reply).
    assert result.tokens == {"planner": 18, "synthesis": 18, "verifier": 18}
    assert server.count == 3
    log = read(Path(result.audit_log))
    queries = [e["query"] for e in log if e["event"] == "retrieval"]
    assert all(t["query"] in queries for t in PLAN["subtasks"])
    requests = [e for e in log if e["event"] == "llm_request"]
    assert [r["prompt"] for r in requests] == ["planner.v1", "synthesis.v1", "verifier.v1"]
    assert all(r["model"] == "fake-model" and r["messages"] for r in requests)
    # The temperature in the log is the one the server received.
    assert all(r["temperature"] == demo_container.settings.llm.temperature for r in requests)
    assert script.calls["planner"][0]["temperature"] == demo_container.settings.llm.temperature
    assert [s for s, _ in events][:3] == ["start", "context", "plan"]
    assert "verify" in [s for s, _ in events]


def test_malformed_plan_is_repaired_once(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    script = Script(
        planner=[Reply.text('{"complexity": "simple", "subtasks": "oops"'), Reply.json(PLAN)],
        synthesis=[synthesis],
        verifier=[SUPPORTED],
    )
    result, _, _ = run(demo_container, script, agent_settings)
    assert result.plan.source == "repaired"
    assert len(script.calls["planner"]) == 2
    repair_request = script.calls["planner"][1]["messages"]
    assert "could not be used" in repair_request[-2]["content"]
    assert "not valid JSON" in repair_request[-1]["content"]


def test_plan_still_malformed_after_repair_falls_back_offline(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    bad_shape = Reply.json({"complexity": "very", "subtasks": []})
    script = Script(
        planner=[Reply.malformed("no json at all"), bad_shape],
        synthesis=[synthesis],
        verifier=[SUPPORTED],
    )
    result, _, _ = run(demo_container, script, agent_settings)
    assert result.plan.source == "offline"
    assert any("planner fell back" in w for w in result.warnings)
    assert result.mode == "llm" and result.verifier.passed


def test_check_threshold_round_trip(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    quote = "below 10 per month"
    source: dict[str, str] = {}

    def call_tool(body: dict[str, Any]) -> Reply:
        texts = evidence_texts(body)
        chunk = next(c for c, t in texts.items() if quote in " ".join(t.split()))
        source["chunk"] = chunk
        args = {"value": 23, "comparison": "<", "quote": quote, "metric": "OAPs a month"}
        return Reply.tool("check_threshold", {**args, "chunk_id": chunk})

    def final(body: dict[str, Any]) -> Reply:
        tool_messages = [m for m in body["messages"] if m["role"] == "tool"]
        assert len(tool_messages) == 1
        verdict = json.loads(tool_messages[0]["content"])
        assert verdict["threshold"] == 10 and verdict["passes"] is False
        return Reply.json(
            {
                "answer": f"No: 23 a month against a target {quote} [{source['chunk']}].",
                "findings": [{"text": "Target missed.", "citations": [source["chunk"]]}],
                "confidence": "MEDIUM",
                "reason": "one source",
            }
        )

    script = Script(planner=[Reply.json(PLAN)], synthesis=[call_tool, final], verifier=[SUPPORTED])
    result, events, _ = run(demo_container, script, agent_settings, THRESHOLD_QUESTION)
    assert len(result.tool_calls) == 1
    record = result.tool_calls[0]
    assert record.name == "check_threshold" and record.error is None
    assert record.result["threshold"] == 10 and record.result["chunk_id"] == source["chunk"]
    assert script.calls["synthesis"][0]["tools"][0]["type"] == "function"
    assert result.citations[0].chunk_id == source["chunk"] and result.verifier.passed
    assert ("tool", {"run_id": result.run_id, "name": "check_threshold", "ok": True}) in events
    logged = [e for e in read(Path(result.audit_log)) if e["event"] == "tool_call"]
    assert logged and logged[0]["result"]["threshold"] == 10
    assert result.tokens["synthesis"] == 36  # two synthesis calls


def test_verifier_fails_once_then_passes_after_refinement(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    problem = "the second sentence is not supported by its citation"
    script = Script(
        planner=[Reply.json(PLAN)],
        synthesis=[synthesis, synthesis],
        verifier=[Reply.json({"supported": False, "problems": [problem]}), SUPPORTED],
    )
    result, events, _ = run(demo_container, script, agent_settings)
    assert result.verifier.passed and result.confidence == "HIGH"
    assert problem not in " ".join(result.warnings)
    refine = script.calls["synthesis"][1]["messages"]
    assert "A checker found problems" in refine[-2]["content"] and problem in refine[-1]["content"]
    steps = [s for s, _ in events]
    assert steps.count("verify") == 2 and steps.count("refine") == 1
    log = read(Path(result.audit_log))
    assert [e["passed"] for e in log if e["event"] == "verify"] == [False, True]


def test_citation_to_a_missing_chunk_is_caught_deterministically(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    def fake_cite(body: dict[str, Any]) -> Reply:
        return synthesis(body, extra=f" It also says so elsewhere [{MISSING}].")

    # The LLM checker is fooled both times; the deterministic check is not.
    script = Script(
        planner=[Reply.json(PLAN)],
        synthesis=[fake_cite, fake_cite],
        verifier=[SUPPORTED, SUPPORTED],
    )
    result, _, _ = run(demo_container, script, agent_settings)
    assert not result.verifier.passed
    assert result.verifier.unknown_citations == [MISSING]
    assert MISSING not in [c.chunk_id for c in result.citations]
    assert any(MISSING in w for w in result.warnings)
    assert result.confidence == "LOW"
    refine = script.calls["synthesis"][1]["messages"][-1]["content"]
    assert MISSING in refine


def test_iteration_cap_with_a_complex_plan(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    never_done = agent_settings.model_copy(
        update={"min_documents": 10_000, "convergence_min_new_share": 0.0}
    )
    plan = {**PLAN, "complexity": "complex"}  # a budget of 3 rounds
    script = Script(planner=[Reply.json(plan)], synthesis=[synthesis], verifier=[SUPPORTED])
    result, _, _ = run(demo_container, script, never_done, max_iterations=2)
    assert result.complexity == "complex"
    assert result.iterations == 2 and len(result.critiques) == 2
    rounds = {e["iteration"] for e in read(Path(result.audit_log)) if e["event"] == "retrieval"}
    assert rounds == {1, 2}


def test_llm_down_falls_back_to_the_offline_answer(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    secret = "sk-test-do-not-log"
    settings = demo_container.settings.model_copy(update={"llm": LlmSettings(api_key=secret)})
    container = dataclasses.replace(demo_container, settings=settings)
    with FakeOpenAIServer(responder=lambda body: Reply.error(503)) as server:
        llm = OpenAIChatClient(
            server.base_url, "fake-model", api_key=secret, max_retries=1, backoff_s=0.01
        )
        result = answer(container, QUESTION, llm=llm, settings=agent_settings)
    assert server.count == 4  # planner and synthesis, each tried twice
    assert result.plan is not None and result.plan.source == "offline" and result.citations
    assert result.note.startswith("The LLM step failed")
    assert any("planner fell back" in w for w in result.warnings)
    text = Path(result.audit_log).read_text(encoding="utf-8")
    assert secret not in text and "llm_error" in text


def test_token_budget_is_counted_and_enforced(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    big_plan = Reply(content=json.dumps(PLAN), prompt_tokens=900, completion_tokens=150)
    script = Script(planner=[big_plan])
    tight = agent_settings.model_copy(update={"max_tokens_total": 1_000})
    result, _, server = run(demo_container, script, tight)
    assert result.tokens == {"planner": 1_050}
    assert server.count == 1  # synthesis and verification were not attempted
    assert result.plan.source == "llm" and result.citations
    assert any("token budget of 1000 spent" in w for w in result.warnings)
    assert result.critiques[-1].stop


def test_closest_examples_are_shown_to_synthesis(
    demo_container: Container, agent_settings: AgentSettings, tmp_path: Path
) -> None:
    examples = tmp_path / "examples.jsonl"
    rows = [
        {"question": "What are RUHT's priorities this year?", "answer": "RUHT will ... [doc-x]."},
        {"question": "How many beds does the unit have?", "answer": "It has 16 beds [doc-y]."},
    ]
    examples.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    cfg = agent_settings.model_copy(update={"examples_path": examples, "examples_shown": 1})
    script = Script(planner=[Reply.json(PLAN)], synthesis=[synthesis], verifier=[SUPPORTED])
    run(demo_container, script, cfg)
    system = script.calls["synthesis"][0]["messages"][0]["content"]
    assert "Q: What are RUHT's priorities this year?" in system
    assert "How many beds" not in system
