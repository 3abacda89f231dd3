"""The Neo4j bench store: the whole database of ``KG_NEO4J__*``, built once per corpus.

Neo4j Community has one user database, so a bench store there is that database. What it was
built from (the embedded bench store's identity: corpus hash, extractor version, embedding
model, chunking; plus the corpus path the document ids derive from and the graph version the
ingest left) is kept in the database itself, in ``(:Meta {key: 'bench_store'})``, written only
after a complete ingest. A database whose marker matches is reused; a killed build of the same
corpus (``bench_started`` matches) is resumed, the ingest skipping committed documents;
anything else (another corpus, other settings, a database written to since) is emptied with
``Neo4jGraphStore.reset`` and rebuilt through the same ingest pipeline and settings as the
embedded store, so the two compare.

The dense baseline's passage vectors are cached on disk in ``<work dir>/neo4j-<sha12>``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.datasets import corpus_sha256, read_corpus
from bench.store import (
    BenchStore,
    ProgressHook,
    default_work_dir,
    died_inside,
    exclusive,
    identity,
    ingest_corpus,
    matches,
)
from core.errors import ConfigError, SchemaVersionError
from extraction.pipeline import runs_dir
from graph_store.neo4j.store import Neo4jGraphStore
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import Embedder

MARKER_KEY = "bench_store"
STARTED_KEY = "bench_started"


@contextmanager
def neo4j_bench_store(
    corpus: Path,
    settings: Settings,
    work_dir: Path | None = None,
    embedder: Embedder | None = None,
    progress: ProgressHook | None = None,
) -> Iterator[BenchStore]:
    """Open (building first when needed) the Neo4j database as the bench store of ``corpus``."""
    passages = read_corpus(corpus)
    sha = corpus_sha256(corpus)
    base = work_dir or default_work_dir(settings)
    cache = base / f"neo4j-{sha[:12]}"
    cache.mkdir(parents=True, exist_ok=True)
    local = settings.model_copy(update={"data_dir": cache, "store": "neo4j"})
    # One lock per work dir and server: a second run would empty the database under the first.
    with exclusive(base / "neo4j"):
        container = build(local)
        if embedder is not None:
            container.embedder = embedder
        store = container.store
        if not isinstance(store, Neo4jGraphStore):  # pragma: no cover - build() picks it
            raise ConfigError("the neo4j bench store needs the Neo4j adapter")
        try:
            marker = _prepare(container, store, sha, corpus)
            reused = marker is not None
            if marker is None:
                marker = _ingest(container, store, corpus, sha, progress)
            n = local.neo4j
            where = f"neo4j {n.uri} database {n.database}"
            yield BenchStore.opened(
                container, cache, corpus, sha, passages, marker, reused, where, "neo4j"
            )
        finally:
            store.close()


def _prepare(
    container: Container, store: Neo4jGraphStore, sha: str, corpus: Path
) -> dict[str, Any] | None:
    """Open the store; the completion marker when the database can be used as is, else None
    with the database ready for the ingest (kept to resume a killed build, else emptied)."""
    try:
        store.open()
    except SchemaVersionError:
        store.reset()  # another schema version or embedding size: nothing to keep
    wanted = identity(container, sha)
    marker = _loads(store.meta(MARKER_KEY))
    if (
        marker is not None
        and matches(marker, wanted)
        and str(marker.get("graph_version")) == store.graph_version()
    ):
        return marker
    started = {**wanted, "corpus_uri": str(corpus.resolve())}
    # The started marker is cleared when the build completes, so it names a killed build;
    # resumed unless an ingest call died inside it (bench/store.py says why).
    data_dir = container.settings.data_dir
    if matches(_loads(store.meta(STARTED_KEY)), started) and not died_inside(data_dir):
        return None
    # The dead calls' documents go with the reset.
    shutil.rmtree(runs_dir(data_dir), ignore_errors=True)
    store.reset()
    store.init_schema()
    store.set_meta(STARTED_KEY, json.dumps(started))
    return None


def _ingest(
    container: Container,
    store: Neo4jGraphStore,
    corpus: Path,
    sha: str,
    progress: ProgressHook | None,
) -> dict[str, Any]:
    marker = {
        **ingest_corpus(container, corpus, sha, progress),
        # A write after this (another ingest into the same database) moves the version on,
        # and the marker no longer describes the graph.
        "graph_version": store.graph_version(),
    }
    store.set_meta(MARKER_KEY, json.dumps(marker))
    store.set_meta(STARTED_KEY, "")
    return marker


def _loads(raw: str | None) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None
