"""Search and answers over HTTP on the demo graph, including the streamed answer (SSE)."""

from __future__ import annotations

import json
from typing import Any

import httpx

from api.app import create_app
from kg.container import Container
from llm.config import LlmSettings
from tests.fakes.openai_server import FakeOpenAIServer
from tests.integration.api.conftest import assert_problem
from tests.integration.api.live import live_server

QUESTION = "Which services does Northdale Mental Health Trust provide?"


def test_search_returns_scored_results(demo_any_client: httpx.Client, demo_any: Container) -> None:
    response = demo_any_client.post("/v1/search", json={"question": QUESTION, "k": 4})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["preset"] == demo_any.settings.retrieval.preset
    results = body["results"]
    assert len(results) == 4
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)
    for r in results:
        assert r["chunk_id"].startswith(r["doc_id"])
        assert r["components"] and isinstance(r["path"], list)
    # The HTTP answer is the library's answer.
    direct = demo_any.searcher().search(QUESTION, 4)
    assert [r["chunk_id"] for r in results] == [r.chunk_id for r in direct]


def test_search_presets_and_bad_requests(demo_client: httpx.Client) -> None:
    dense = demo_client.post("/v1/search", json={"question": QUESTION, "k": 2, "preset": "dense"})
    assert dense.json()["preset"] == "dense"
    assert set(dense.json()["results"][0]["components"]) == {"dense"}
    body = assert_problem(
        demo_client.post("/v1/search", json={"question": QUESTION, "preset": "psychic"}), 422
    )
    assert "psychic" in str(body["detail"])
    assert_problem(demo_client.post("/v1/search", json={"question": QUESTION, "k": 0}), 422)
    assert_problem(demo_client.post("/v1/search", json={"question": ""}), 422)


def test_ask_answers_with_citations(demo_any_client: httpx.Client) -> None:
    response = demo_any_client.post("/v1/ask", json={"question": QUESTION, "max_iterations": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["question"] == QUESTION
    assert body["mode"] == "offline"  # no LLM configured: the result says so
    assert body["answer"]
    cited = {c["chunk_id"] for c in body["citations"]}
    assert cited
    for chunk_id in cited:
        assert f"[{chunk_id}]" in body["answer"]
    assert_problem(demo_any_client.post("/v1/ask", json={"question": QUESTION, "k": 0}), 422)


def _events(text: str) -> list[tuple[str, Any]]:
    events = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields["event"], json.loads(fields["data"])))
    return events


def test_ask_streams_steps_then_the_result(demo_any_client: httpx.Client) -> None:
    with demo_any_client.stream(
        "POST", "/v1/ask", json={"question": QUESTION, "stream": True}
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = response.read().decode("utf-8")
    events = _events(text)
    names = [name for name, _ in events]
    assert names[0] == "start"
    assert {"plan", "retrieval", "done"} <= set(names)
    assert names[-2:] == ["result", "end"]
    assert "error" not in names
    result = events[-2][1]
    run_ids = {payload["run_id"] for name, payload in events if name not in ("result", "end")}
    assert run_ids == {result["run_id"]}, "every step belongs to the run that gave the result"
    unstreamed = demo_any_client.post("/v1/ask", json={"question": QUESTION}).json()
    assert result["answer"] == unstreamed["answer"]


def test_chunked_body_over_the_limit_is_413(rw_client: httpx.Client) -> None:
    # No Content-Length: the limit is enforced while the body is read.
    def body() -> Any:
        for _ in range(40):
            yield b" " * 8192

    response = rw_client.post(
        "/v1/search", content=body(), headers={"content-type": "application/json"}
    )
    assert_problem(response, 413)


def test_ask_uses_the_configured_llm(demo_container: Container) -> None:
    # The network edge is faked; the LLM's unhelpful "{}" replies make each step fall back,
    # and the result says the LLM step failed.
    with FakeOpenAIServer(responder=lambda _body: "{}") as llm_server:
        llm = LlmSettings(base_url=llm_server.base_url, model="fake-model")
        settings = demo_container.settings.model_copy(update={"llm": llm})
        app = create_app(settings, container=demo_container)
        with live_server(app) as url:
            response = httpx.post(
                f"{url}/v1/ask", json={"question": QUESTION, "max_iterations": 1}, timeout=120
            )
        assert response.status_code == 200, response.text
        body = response.json()
        assert (body["mode"], body["model"]) == ("llm-failed", "fake-model")
        assert body["confidence"] != "HIGH"
        assert llm_server.count > 0
        assert {r["model"] for r in llm_server.requests} == {"fake-model"}
