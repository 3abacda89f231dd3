"""The API on the demo graph, served on loopback for the browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from api.app import create_app
from kg.container import Container
from tests.conftest import ROOT
from tests.integration.api.live import live_server

CHROMIUM = Path("/usr/bin/chromium")
OUTPUT = ROOT / "test-output" / "e2e"


@pytest.fixture(scope="module")
def demo_url(demo_container: Container) -> Iterator[str]:
    cytoscape = demo_container.settings.api.explorer_node_modules / "cytoscape"
    assert cytoscape.is_dir(), f"{cytoscape} is missing: run `make setup` (npm ci)"
    with live_server(create_app(demo_container.settings, container=demo_container)) as url:
        yield url


@pytest.fixture()
def output_dir() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT


API_KEY = "e2e-explorer-key"


@pytest.fixture(scope="module")
def keyed_url(demo_container: Container) -> Iterator[str]:
    """The demo graph behind a server that wants an API key (``API_KEY``)."""
    settings = demo_container.settings.model_copy(update={"api_keys": API_KEY})
    with live_server(create_app(settings, container=demo_container)) as url:
        yield url
