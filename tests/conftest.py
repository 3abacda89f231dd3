"""Shared fixtures: real embedded Kùzu store in a temp dir, the real offline embedder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


@pytest.fixture()
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "kg")


@pytest.fixture()
def container(settings: Settings, embedder: SentenceTransformerEmbedder) -> Iterator[Container]:
    c = build(settings)
    c.embedder = embedder  # one model load per session
    c.store.open()
    c.store.init_schema()
    try:
        yield c
    finally:
        c.store.close()


@pytest.fixture(scope="session")
def demo_container(
    tmp_path_factory: pytest.TempPathFactory, embedder: SentenceTransformerEmbedder
) -> Iterator[Container]:
    """The demo corpus ingested once, shared read-only by the tests that only query it."""
    settings = Settings(data_dir=tmp_path_factory.mktemp("demo") / "kg")
    c = build(settings)
    c.embedder = embedder
    c.store.open()
    c.store.init_schema()
    c.ingestor().ingest_paths([DEMO])
    try:
        yield c
    finally:
        c.store.close()
