"""Numbers end to end on the demo graph: limits read from the ingested manual, checks worked out
by the tools offline, the LLM's tool loop stopped at ``max_tool_rounds`` (a scripted server:
a model that never stops asking for tools is a fault a real one will not show on demand), and
the verifier flagging a number no evidence or tool result holds."""

from __future__ import annotations

from typing import Any

from agents.config import AgentSettings
from agents.models import AgenticResult
from agents.orchestrator import answer
from kg.container import Container
from llm import LlmSettings
from llm.openai_compat import OpenAICompatClient
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.agents.conftest import Script, Step, evidence_ids

MANUAL = "Fresh Start Order Adviser Manual: Eligibility Limits"
PLAN: dict[str, Any] = {
    "complexity": "simple",
    "subtasks": [{"description": "the client's figures", "query": "Jordan Whitlock debts"}],
}


def _ask(
    container: Container, settings: AgentSettings, question: str, *synthesis: Step
) -> tuple[Script, AgenticResult]:
    script = Script(planner=[Reply.json(PLAN)], synthesis=list(synthesis), verifier=[])
    with FakeOpenAIServer(responder=script) as server:
        llm = OpenAICompatClient(LlmSettings(base_url=server.base_url, model="m", max_retries=0))
        return script, answer(container, question, llm=llm, settings=settings)


def test_offline_limit_question_answers_with_tool_results_and_cites_the_manual(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    result = answer(
        demo_container,
        "Is Jordan Whitlock under the Fresh Start Order limits?",
        settings=agent_settings,
    )
    checks = {r.result["limit"]: r.result for r in result.tool_calls}
    assert set(checks) == {35000.0, 80.0, 2500.0}  # total debts, surplus income, assets
    debts = checks[35000.0]
    assert debts["value"] == 15986.25 and debts["passes"] is True
    assert debts["formatted"]["headroom"] == "£19,013.75"
    assert round(debts["utilisation_percent"], 1) == 45.7
    assert result.answer.startswith("Yes:")
    assert "£19,013.75" in result.answer and "45.7%" in result.answer
    assert MANUAL in {c.document_title for c in result.citations}
    assert result.verifier is not None and result.verifier.unmatched_numbers == []
    assert result.confidence != "LOW"


def test_offline_limit_question_says_no_when_a_limit_is_exceeded(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    result = answer(
        demo_container,
        "Is Priya Castell within the Fresh Start Order limits?",
        settings=agent_settings,
    )
    failed = [r.result for r in result.tool_calls if not r.result["passes"]]
    assert {r["limit"] for r in failed} == {35000.0, 80.0}
    assert result.answer.startswith("No:") and "£6,230" in result.answer


def test_a_question_without_a_limit_runs_no_check(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    result = answer(
        demo_container, "Who is the adviser for Jordan Whitlock?", settings=agent_settings
    )
    assert result.tool_calls == []


def _draft(tool_calls: list[dict[str, Any]], text: str = "Pending.") -> Reply:
    return Reply.json(
        {
            "tool_calls": tool_calls,
            "answer": text,
            "findings": [],
            "confidence": "LOW",
            "reason": "tools first",
        }
    )


def test_the_tool_loop_stops_at_max_tool_rounds(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    settings = agent_settings.model_copy(update={"max_tool_rounds": 2, "refinement_passes": 0})
    lookup = {
        "tool": "check_threshold",
        "value": 15986.25,
        "metric": "Fresh Start Order total debts limit",
    }
    add = {"tool": "sum_numbers", "values": [1840, 6250.5], "unit": "GBP"}

    def final(body: dict[str, Any]) -> Reply:
        cite = evidence_ids(body)[0]
        return Reply.json(
            {
                "answer": f"Total debts are within the limit [{cite}].",
                "findings": [
                    {"text": "Within the limit.", "kind": "INFERENCE", "citations": [cite]}
                ],
                "confidence": "MEDIUM",
                "reason": "tool checked",
            }
        )

    # The model asks for tools every time it may; the third request must allow none.
    script, result = _ask(
        demo_container,
        settings,
        "Is Jordan Whitlock under the Fresh Start Order limits?",
        _draft([lookup]),
        _draft([add]),
        final,
    )
    calls = script.calls["synthesis"]
    assert len(calls) == 3
    schemas = [c["response_format"]["json_schema"]["schema"]["properties"] for c in calls]
    assert ["tool_calls" in p for p in schemas] == [True, True, False]
    # The three limit checks worked out before synthesis, then the model's two calls.
    names = [r.name for r in result.tool_calls]
    assert names == ["check_threshold"] * 3 + ["check_threshold", "sum_numbers"]
    threshold = result.tool_calls[3].result
    assert threshold["threshold"] == 35000.0 and threshold["passes"] is True
    assert threshold["source"] == MANUAL and "headroom" in threshold
    assert result.tool_calls[4].result["formatted"]["sum"] == "£8,090.50"


def test_the_model_reads_the_limit_checks_the_tools_worked_out(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    settings = agent_settings.model_copy(update={"refinement_passes": 0})

    def cites_the_check(body: dict[str, Any]) -> Reply:
        cite = evidence_ids(body)[0]
        return _draft([], f"Jordan Whitlock has headroom of £19,013.75 [{cite}].")

    script, result = _ask(
        demo_container,
        settings,
        "Is Jordan Whitlock under the Fresh Start Order limits?",
        cites_the_check,
    )
    prompt = script.calls["synthesis"][0]["messages"][-1]["content"]
    assert "Checks already worked out by the tools" in prompt
    assert "£19,013.75" in prompt  # the total debts limit's headroom
    assert MANUAL in prompt  # the manual's chunk is in the evidence the model reads
    # The model's number is the tools' number: the verifier finds it in their results.
    assert result.verifier is not None and result.verifier.unmatched_numbers == []
    assert [r.name for r in result.tool_calls] == ["check_threshold"] * 3


def test_the_verifier_flags_a_number_nobody_stated(
    demo_container: Container, agent_settings: AgentSettings
) -> None:
    settings = agent_settings.model_copy(update={"refinement_passes": 0})

    def invented(body: dict[str, Any]) -> Reply:
        cite = evidence_ids(body)[0]
        return _draft([], f"Jordan Whitlock owes £99,999 in total [{cite}].")

    _, result = _ask(
        demo_container, settings, "How much does Jordan Whitlock owe in total?", invented
    )
    assert result.verifier is not None
    assert result.verifier.unmatched_numbers == ["£99,999"]
    assert result.confidence == "LOW"
    assert any("£99,999" in w for w in result.warnings)
