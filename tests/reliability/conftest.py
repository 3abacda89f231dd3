"""Stores and servers for the reliability checks: a small graph each check may try to break,
and the shared demo graph for checks that must leave it exactly as it was."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.app import create_app
from api.config import ApiSettings
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.integration.api.live import live_client

DOCS = {
    "harbour.md": "# Harbour Board\n\nThe Harbour Board funds the Kelby Clinic in Ravensford.\n"
    "The Kelby Clinic opened in 2021 and serves the Ravensford district.\n",
    "clinic.md": "# Kelby Clinic\n\nKelby Clinic works with Northdale Trust on crisis cafés.\n",
}


def write_docs(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def small_container(
    tmp_path_factory: pytest.TempPathFactory, embedder: SentenceTransformerEmbedder
) -> Iterator[Container]:
    """Two short documents in a fresh store, with an ingest root the API may read."""
    base = tmp_path_factory.mktemp("reliability")
    root = base / "allowed"
    write_docs(root / "docs")
    settings = Settings(
        data_dir=base / "kg",
        api=ApiSettings(
            ingest_roots=[root], max_upload_bytes=64 * 1024, max_request_bytes=256 * 1024
        ),
    )
    c = build(settings)
    c.embedder = embedder
    c.store.open()
    c.store.init_schema()
    c.ingestor().ingest_paths([root / "docs"])
    try:
        yield c
    finally:
        c.store.close()


@pytest.fixture(scope="module")
def small_client(small_container: Container) -> Iterator[httpx.Client]:
    app = create_app(small_container.settings, container=small_container)
    with live_client(app) as client:
        yield client


@pytest.fixture(scope="module")
def demo_reliability_client(demo_container: Container) -> Iterator[httpx.Client]:
    app = create_app(demo_container.settings, container=demo_container)
    with live_client(app) as client:
        yield client
