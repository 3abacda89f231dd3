"""Servers for the API tests: the shared demo graph (read-only routes) and a fresh store per
test (routes that write). Both are real uvicorn servers on loopback, reached with httpx."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app
from api.config import ApiSettings
from kg.container import Container
from kg.settings import Settings
from tests.integration.api.live import live_client

MAX_UPLOAD = 64 * 1024
MAX_REQUEST = 256 * 1024


@pytest.fixture()
def ingest_root(tmp_path: Path) -> Path:
    root = tmp_path / "allowed"
    root.mkdir()
    return root


@pytest.fixture()
def settings(tmp_path: Path, ingest_root: Path, store_overrides: dict[str, Any]) -> Settings:
    """Overrides the shared ``settings``: the fresh store's API limits are small to test."""
    return Settings(
        **store_overrides,
        data_dir=tmp_path / "kg",
        api=ApiSettings(
            ingest_roots=[ingest_root],
            max_upload_bytes=MAX_UPLOAD,
            max_request_bytes=MAX_REQUEST,
            max_page_size=50,
        ),
    )


@pytest.fixture()
def rw_client(container: Container) -> Iterator[httpx.Client]:
    """A server on a fresh, empty store that the test may write to."""
    app = create_app(container.settings, container=container)
    with live_client(app) as client:
        yield client


@pytest.fixture(scope="module")
def demo_client(demo_container: Container) -> Iterator[httpx.Client]:
    """A server on the shared demo graph, for routes that only read."""
    app = create_app(demo_container.settings, container=demo_container)
    with live_client(app) as client:
        yield client


@pytest.fixture(scope="module")
def demo_any_client(demo_any: Container) -> Iterator[httpx.Client]:
    """``demo_client`` on each store in turn (``demo_any``)."""
    app = create_app(demo_any.settings, container=demo_any)
    with live_client(app) as client:
        yield client


def assert_problem(response: httpx.Response, status: int) -> dict[str, object]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status
    assert isinstance(body["detail"], str) and body["detail"]
    return dict(body)
