"""``/v1/ask`` returns the analyst's report and takes the search filters; ``/v1/runs/{id}``
serves the run's audit trail without server paths."""

from __future__ import annotations

import httpx

from kg.container import Container
from tests.integration.api.conftest import assert_problem

QUESTION = "What are NMHT's priorities for the next 12 months?"


def test_ask_returns_the_report_and_its_run_is_served(
    demo_any_client: httpx.Client, demo_any: Container
) -> None:
    response = demo_any_client.post(
        "/v1/ask", json={"question": QUESTION, "max_iterations": 1, "type": "priorities"}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    report = body["report"]
    for key in ("findings", "sources", "gaps", "confidence", "epistemic", "iterations"):
        assert key in report
    assert {s["doc_type"] for s in report["sources"]} == {"priorities"}
    assert report["sources"][0]["tier"] == "PRIMARY" and report["sources"][0]["date"]
    assert 0 <= report["confidence"]["score"] <= 100
    assert body["plan"]["subtasks"] and body["critiques"] and body["verifier"]
    assert body["used_chunk_ids"] and set(body["used_chunk_ids"]) >= {
        c["chunk_id"] for c in body["citations"]
    }
    data_dir = str(demo_any.settings.data_dir)
    assert "audit_log" not in body and data_dir not in response.text
    run = demo_any_client.get(body["audit"])
    assert run.status_code == 200, run.text
    events = run.json()["events"]
    assert events[0]["event"] == "start" and events[-1]["event"] == "result"
    assert {e["run_id"] for e in events} == {body["run_id"]}
    assert any(e["event"] == "retrieval" and e["results"] for e in events)
    assert data_dir not in run.text


def test_unknown_runs_and_bad_filters_are_problems(demo_any_client: httpx.Client) -> None:
    assert_problem(demo_any_client.get("/v1/runs/20260101T000000Z-00000000"), 404)
    assert_problem(demo_any_client.get("/v1/runs/..%2F..%2Fsecrets"), 404)
    assert_problem(demo_any_client.post("/v1/ask", json={"question": QUESTION, "from": "May"}), 422)
