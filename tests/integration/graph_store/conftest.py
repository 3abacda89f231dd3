"""The demo graph behind an explorer-capable embedded store, shared by the explore tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graph_store.explore_port import GraphExplorer
from graph_store.kuzu.explore import KuzuExploreMixin
from graph_store.kuzu.store import KuzuGraphStore
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder
from tests.conftest import DEMO


class ExploreStore(KuzuGraphStore, KuzuExploreMixin):
    """The adapter with the explore mixin, in the order the adapter itself will list it."""


@pytest.fixture(scope="session")
def explore_demo(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    embedder: SentenceTransformerEmbedder,
) -> Iterator[Container]:
    """``demo_container`` itself once its store is a GraphExplorer; until the adapter lists
    the mixin among its bases, the demo ingested into an ``ExploreStore`` of our own."""
    if issubclass(KuzuGraphStore, KuzuExploreMixin):
        yield request.getfixturevalue("demo_container")
        return
    settings = Settings(data_dir=tmp_path_factory.mktemp("explore-demo") / "kg")
    c = build(settings)
    c.embedder = embedder
    c.store = ExploreStore(settings.embedded_path, embedder.dimension, embedder.model_name)
    c.store.open()
    c.store.init_schema()
    c.ingestor().ingest_paths([DEMO])
    try:
        yield c
    finally:
        c.store.close()


@pytest.fixture()
def explorer(explore_demo: Container) -> GraphExplorer:
    store = explore_demo.store
    assert isinstance(store, GraphExplorer)
    return store
