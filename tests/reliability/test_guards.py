"""Generated writes are refused; keys are required everywhere but health and never logged."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from api.app import create_app
from bench.reliability.digest import graph_digest
from kg.container import Container
from llm.config import LlmSettings
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.integration.api.live import live_client

WRITES = (
    "MATCH (n) DETACH DELETE n",
    "CREATE (:Entity {id: 'ent-x', name: 'x'})",
    "MATCH (e:Entity) SET e.name = 'pwned' RETURN e",
    "MATCH (n) RETURN n; MATCH (n) DETACH DELETE n",
    "MERGE (a:Alias {name: 'x'}) RETURN a",
    "COPY Entity FROM '/etc/passwd'",
    "CALL DROP_FTS_INDEX('Chunk', 'chunk_fts')",
)
OPEN = {"/healthz", "/readyz", "/docs", "/openapi.json", "/explore"}
KEY = "reliability-key-3f9a1c77e2"


def test_text2cypher_writes_are_refused(small_container: Container) -> None:
    replies = [Reply.text(f"```cypher\n{q}\n```") for q in WRITES]
    with FakeOpenAIServer(replies) as llm:
        llm_settings = LlmSettings(base_url=llm.base_url, model="fake-model")
        settings = small_container.settings.model_copy(update={"llm": llm_settings})
        before = graph_digest(small_container.store)
        app = create_app(settings, container=small_container)
        with live_client(app, timeout=60) as client:
            statuses = [
                client.post("/v1/cypher", json={"question": "delete everything"}).status_code
                for _ in WRITES
            ]
    assert statuses == [403] * len(WRITES)
    assert graph_digest(small_container.store) == before


def test_every_keyed_route_refuses_and_no_key_is_logged(
    small_container: Container, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = small_container.settings.model_copy(update={"api_keys": KEY})
    app = create_app(settings, container=small_container)
    routes = [
        (method.upper(), re.sub(r"\{[^}]+\}", "x", path))
        for path, ops in app.openapi()["paths"].items()
        for method in ops
        if path not in OPEN
    ]
    with live_client(app) as client:
        for method, path in routes:
            for headers in ({}, {"X-API-Key": KEY[:-1]}, {"X-API-Key": KEY + "0"}):
                got = client.request(method, path, headers=headers)
                assert got.status_code == 401, (method, path, headers, got.text)
        for path in OPEN:
            assert client.get(path).status_code == 200, path
        # A keyed ask writes an audit log; a wrong key goes to the log path of a refusal.
        ok = client.post(
            "/v1/ask",
            json={"question": "Kelby Clinic", "max_iterations": 1},
            headers={"X-API-Key": KEY},
        )
        assert ok.status_code == 200, ok.text
    assert len(routes) >= 15
    assert KEY[:-1] not in caplog.text
    data_dir = Path(small_container.settings.data_dir)
    files = [p for p in data_dir.rglob("*") if p.is_file()]
    assert files
    for f in files:
        assert KEY[:-1].encode() not in f.read_bytes(), f
