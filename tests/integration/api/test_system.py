"""Health, readiness, stats, OpenAPI, and error bodies as application/problem+json."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from api.app import create_app
from api.security import key_digests
from extraction.loaders import discover
from kg.container import Container
from kg.settings import Settings
from tests.conftest import DEMO
from tests.integration.api.conftest import assert_problem
from tests.integration.api.live import live_server


def test_health_and_readiness(demo_any_client: httpx.Client, demo_any: Container) -> None:
    assert demo_any_client.get("/healthz").json() == {"status": "ok"}
    ready = demo_any_client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "store": demo_any.settings.store}


def test_stats_are_the_store_counts(demo_any_client: httpx.Client, demo_any: Container) -> None:
    stats = demo_any_client.get("/v1/stats")
    assert stats.status_code == 200
    assert stats.json() == demo_any.store.counts().as_dict()
    demo_files, _ = discover([DEMO])  # what an ingest of the folder reads

    assert stats.json()["documents"] == len(demo_files)


def test_openapi_lists_every_route(demo_client: httpx.Client, demo_container: Container) -> None:
    spec = demo_client.get("/openapi.json").json()
    assert set(spec["paths"]) >= {
        "/healthz",
        "/readyz",
        "/v1/stats",
        "/v1/documents",
        "/v1/documents/{doc_id}",
        "/v1/ingest",
        "/v1/search",
        "/v1/ask",
        "/v1/entities",
        "/v1/entities/{entity_id}",
        "/v1/entities/{entity_id}/neighborhood",
        "/v1/relations",
        "/v1/paths",
        "/v1/cypher",
    }
    # The demo server has no keys, so its document claims no key scheme; one with keys does,
    # and lists the 401 its routes then answer.
    assert "securitySchemes" not in spec.get("components", {})
    assert "401" not in spec["paths"]["/v1/stats"]["get"]["responses"]
    keyed_settings = demo_container.settings.model_copy(update={"api_keys": "k-0123456789"})
    keyed = create_app(keyed_settings, container=demo_container).openapi()
    assert "X-API-Key" in str(keyed["components"]["securitySchemes"])
    assert "401" in keyed["paths"]["/v1/stats"]["get"]["responses"]
    docs = demo_client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_unknown_route_and_bad_input_are_problems(demo_client: httpx.Client) -> None:
    assert_problem(demo_client.get("/v1/nothing-here"), 404)
    body = assert_problem(demo_client.post("/v1/search", json={"k": 3}), 422)
    assert "question" in str(body["detail"])
    assert body["errors"]
    assert_problem(
        demo_client.post(
            "/v1/search", content=b"{not json", headers={"content-type": "application/json"}
        ),
        422,
    )


def test_api_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KG_API__INGEST_ROOTS", f"{tmp_path}/a, {tmp_path}/b")
    monkeypatch.setenv("KG_API__MAX_REQUEST_BYTES", "2048")
    monkeypatch.setenv("KG_API_KEYS", "k1,k2")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]  # a stray .env must not count
    assert settings.api.ingest_roots == [tmp_path / "a", tmp_path / "b"]
    assert settings.api.max_request_bytes == 2048
    assert key_digests(settings.api_keys) == key_digests(" k1 , k2 ,")
    assert len(key_digests(settings.api_keys)) == 2


def test_explorer_page_and_assets(demo_client: httpx.Client) -> None:
    page = demo_client.get("/explore")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for src in re.findall(r'src="([^"]+)"', page.text):
        script = demo_client.get(src)
        assert script.status_code == 200, src
        assert script.headers["content-type"].startswith("text/javascript")
    assert "cytoscape" in demo_client.get("/explore/vendor/cytoscape.min.js").text[:2000].lower()
    assert_problem(demo_client.get("/explore/assets/../../config.py"), 404)
    assert_problem(demo_client.get("/explore/assets/secrets.txt"), 404)


def test_missing_cytoscape_is_a_clear_503(demo_container: Container, tmp_path: Path) -> None:
    api = demo_container.settings.api.model_copy(update={"explorer_node_modules": tmp_path})
    settings = demo_container.settings.model_copy(update={"api": api})
    with live_server(create_app(settings, container=demo_container)) as url:
        response = httpx.get(f"{url}/explore/vendor/cytoscape.min.js")
    body = assert_problem(response, 503)
    assert "make setup" in str(body["detail"])


def test_docs_pages_load_everything_from_this_server(demo_client: httpx.Client) -> None:
    """/docs and /redoc work offline: every script, style sheet and icon they name is a path
    on this server that answers 200 (FastAPI's defaults load from a CDN: a blank page)."""
    for page in ("/docs", "/redoc"):
        html = demo_client.get(page)
        assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
        urls = re.findall(
            r"""(?:src|href|spec-url)=["']([^"']+)["']|url: ?["']([^"']+)["']""", html.text
        )
        named = {a or b for a, b in urls}
        assert named, html.text
        assert "http" not in html.text.replace("http-equiv", ""), "an absolute URL: " + page
        for url in named:
            assert url.startswith("/"), (page, url)
            assert demo_client.get(url).status_code == 200, (page, url)
    assert "/openapi.json" in demo_client.get("/docs").text
    assert "SwaggerUIBundle" in demo_client.get("/docs-assets/swagger-ui-bundle.js").text[:2000]
