"""API keys: every /v1 route needs one when KG_API_KEYS is set; health and the page do not."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest

from api.app import create_app
from kg.container import Container
from tests.integration.api.conftest import assert_problem
from tests.integration.api.live import live_client

KEYS = "first-key-0123456789, second-key-abcdef"


@pytest.fixture(scope="module")
def keyed_client(demo_container: Container) -> Iterator[httpx.Client]:
    settings = demo_container.settings.model_copy(update={"api_keys": KEYS})
    app = create_app(settings, container=demo_container)
    with live_client(app, timeout=60) as client:
        yield client


ROUTES = [
    ("GET", "/v1/stats", None),
    ("GET", "/v1/documents", None),
    ("POST", "/v1/search", {"question": "crisis cafés"}),
    ("POST", "/v1/ask", {"question": "crisis cafés"}),
    ("GET", "/v1/entities?q=NMHT", None),
    ("GET", "/v1/entities/ent-0000000000000000", None),
    ("GET", "/v1/entities/ent-0000000000000000/neighborhood", None),
    ("GET", "/v1/relations?source=a&target=b", None),
    ("GET", "/v1/paths?from=a&to=b", None),
    ("POST", "/v1/cypher", {"query": "MATCH (d:Document) RETURN count(d) AS n"}),
    ("POST", "/v1/ingest", {"paths": ["/etc"]}),
    ("DELETE", "/v1/documents/doc-0000000000000000", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
def test_missing_and_wrong_keys_are_refused(
    keyed_client: httpx.Client, method: str, path: str, body: object
) -> None:
    missing = keyed_client.request(method, path, json=body)
    assert_problem(missing, 401)
    assert "X-API-Key" in missing.headers["www-authenticate"]
    wrong = keyed_client.request(method, path, json=body, headers={"X-API-Key": "first-key"})
    assert_problem(wrong, 401)


def test_each_configured_key_is_accepted(keyed_client: httpx.Client) -> None:
    for key in ("first-key-0123456789", "second-key-abcdef"):
        response = keyed_client.get("/v1/stats", headers={"X-API-Key": key})
        assert response.status_code == 200
        assert response.json()["documents"] > 0


def test_health_docs_and_explorer_page_need_no_key(keyed_client: httpx.Client) -> None:
    for path in ("/healthz", "/readyz", "/openapi.json", "/explore", "/explore/assets/explore.js"):
        assert keyed_client.get(path).status_code == 200, path


def test_no_keys_configured_means_open(demo_client: httpx.Client) -> None:
    assert demo_client.get("/v1/stats").status_code == 200


def test_keys_never_reach_the_log(
    keyed_client: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    keyed_client.get("/v1/stats", headers={"X-API-Key": "first-key-0123456789"})
    keyed_client.get("/v1/stats", headers={"X-API-Key": "a-wrong-key-567"})
    keyed_client.post("/v1/cypher", headers={"X-API-Key": "first-key-0123456789"}, json={})
    assert caplog.records, "the server logged nothing to check"
    for secret in ("first-key-0123456789", "second-key-abcdef", "a-wrong-key-567"):
        assert secret not in caplog.text
