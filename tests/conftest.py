"""Shared fixtures: real embedded Kùzu store in a temp dir, the real offline embedder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
# The suite's stores and its `embedder` fixture are the torch MiniLM (the `torch` extra), at the
# precision a user's ingest gets (`KG_EMBEDDING__PRECISION`, `auto` unless set); the onnx
# backend, the default of a plain install, has its own tests, which set it.
os.environ.setdefault("KG_EMBEDDING__BACKEND", "torch")

from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests import neo4j_local, stores

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


# The fixtures that reach the one Neo4j test database; tests using them empty it.
_NEO4J_FIXTURES = frozenset({"neo4j_server", "neo4j_demo"})


def pytest_itemcollected(item: pytest.Item) -> None:
    """Groups for ``make test``'s workers (pytest-xdist, ``--dist loadgroup``): every test
    that reaches the Neo4j test database runs on one worker in collection order, since those
    tests empty it; the tests of the local model share one worker, since its server answers
    one request at a time (two workers waiting on it would idle a core: they ran last, in
    parallel, and made the suite's tail); every other test file runs whole on one worker, so
    a module's fixtures (an ingested corpus, a started server) are built once. Marked as each
    test is collected, before xdist reads the marks; without xdist they do nothing."""
    fixtures = set(getattr(item, "fixturenames", ()))
    if item.get_closest_marker("neo4j") is not None or _NEO4J_FIXTURES & fixtures:
        group = "neo4j"
    elif "local_llm" in fixtures:
        group = "llm"
    else:
        group = item.nodeid.split("::", 1)[0]
    item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(precision=Settings().embedding.precision)


@pytest.fixture()
def store_kind() -> str:
    """The store of ``settings``: the embedded one, unless a test is parametrised over
    ``store_kind`` (``tests.stores.both_stores``)."""
    return "embedded"


@pytest.fixture()
def store_overrides(request: pytest.FixtureRequest, store_kind: str) -> Iterator[dict[str, Any]]:
    """``Settings`` fields selecting ``store_kind``'s store (Neo4j: emptied before and after)."""
    with stores.store_settings(request, store_kind) as fields:
        yield fields


@pytest.fixture()
def settings(tmp_path: Path, store_overrides: dict[str, Any]) -> Settings:
    return Settings(data_dir=tmp_path / "kg", **store_overrides)


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


@pytest.fixture(scope="session")
def neo4j_demo(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    embedder: SentenceTransformerEmbedder,
) -> Iterator[stores.DemoOnNeo4j]:
    """The demo graph on the Neo4j test server, (re)ingested on demand (tests/stores.py)."""
    request.getfixturevalue("neo4j_server")
    holder = stores.DemoOnNeo4j(tmp_path_factory.mktemp("demo-neo4j"), embedder, DEMO)
    yield holder
    holder.close()
    stores.empty_neo4j()


@pytest.fixture(scope="module", params=stores.STORES)
def demo_any(request: pytest.FixtureRequest) -> Container:
    """The demo graph on each store in turn: the shared embedded one, then Neo4j's."""
    if request.param == "embedded":
        c: Container = request.getfixturevalue("demo_container")
        return c
    holder: stores.DemoOnNeo4j = request.getfixturevalue("neo4j_demo")
    return holder.get()


@pytest.fixture(scope="session")
def neo4j_server() -> Iterator[str]:
    """The Bolt URI of a running Neo4j + GDS + APOC (see tests/neo4j_local.py); started here,
    and stopped at the end of the session, when NEO4J_URI was not given."""
    if not neo4j_local.STARTS_OWN:
        _check_reachable(neo4j_local.URI)
        yield neo4j_local.URI
        return
    from kg.neo4j_server import LocalNeo4j, Neo4jServerSettings

    server = LocalNeo4j(
        neo4j_local.LOCAL_HOME,
        neo4j_local.URI,
        neo4j_local.USER,
        neo4j_local.PASSWORD,
        Neo4jServerSettings(http_port=0),
    )
    was_running = server.status().running
    try:
        server.start()
    except Exception as exc:  # a clear failure, never a skip
        pytest.fail(f"could not start the test Neo4j server: {exc}", pytrace=False)
    yield neo4j_local.URI
    if not was_running:
        server.stop()


def _check_reachable(uri: str) -> None:
    import neo4j

    try:
        with neo4j.GraphDatabase.driver(
            uri, auth=(neo4j_local.USER, neo4j_local.PASSWORD)
        ) as driver:
            driver.verify_connectivity()
    except Exception as exc:
        pytest.fail(f"NEO4J_URI={uri} does not answer: {exc}", pytrace=False)
