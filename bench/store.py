"""The store a benchmark runs against: built once per corpus, reused while valid.

``store="embedded"`` (the default) is described here; ``store="neo4j"`` is the Neo4j database
of ``KG_NEO4J__*`` (bench/neo4j_store.py), built the same way with the marker in the database.

It lives in ``<data dir>/bench/<corpus sha256[:12]>``. A marker file is written only after a
complete ingest, recording what the store was built from (corpus hash, extractor version,
embedding model, chunking). A store without a matching marker is never used as is: a build of
the same corpus killed after its ingest call completed is resumed (the ingest finds every
document unchanged); one killed inside an ingest call, or anything else, is rebuilt from
scratch, so numbers never come from a half-built or stale graph. (The ingest would delete and
redo every document a dead call committed, extraction/run_markers.py: for a 30,000-passage
build killed while writing, deleting what it had written, 500 documents a transaction, ran for
over 50 minutes without finishing.)
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.datasets import Passage, corpus_sha256, read_corpus
from core.errors import ConfigError, InputError, SchemaVersionError, StoreError
from extraction.pipeline import runs_dir
from extraction.run_markers import RunMarkers
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import Embedder

ProgressHook = Callable[[str, int, int], None]
MARKER = "complete.json"
STARTED = "started.json"
_PAGE = 1000
STORES = ("embedded", "neo4j")


@dataclass(frozen=True)
class BenchStore:
    container: Container
    directory: Path
    corpus: Path
    corpus_sha256: str
    passages: list[Passage]
    reused: bool
    ingest_seconds: float
    doc_to_passage: dict[str, int]
    # Where the graph is: the embedded store's folder, or the Neo4j server and database.
    location: str = ""
    store_kind: str = "embedded"

    @classmethod
    def opened(
        cls,
        container: Container,
        directory: Path,
        corpus: Path,
        sha: str,
        passages: list[Passage],
        marker: dict[str, Any],
        reused: bool,
        location: str,
        store_kind: str = "embedded",
    ) -> BenchStore:
        """The bench store of an opened container whose build ``marker`` describes: the
        ingest time and the passage of every document come from it."""
        return cls(
            container=container,
            directory=directory,
            corpus=corpus,
            corpus_sha256=sha,
            passages=passages,
            reused=reused,
            ingest_seconds=float(marker.get("ingest_seconds", 0.0)),
            doc_to_passage=doc_map(container, str(marker["corpus_uri"])),
            location=location,
            store_kind=store_kind,
        )

    def passages_of_docs(self, doc_ids: Sequence[str]) -> list[int]:
        """Passage indices in rank order, each once (first occurrence wins)."""
        found = (self.doc_to_passage.get(d) for d in doc_ids)
        return list(dict.fromkeys(i for i in found if i is not None))

    def passages_of_chunks(self, chunk_ids: Sequence[str]) -> list[int]:
        hits = self.container.store.get_chunks(list(chunk_ids))
        return self.passages_of_docs([h.doc_id for h in hits])


def default_work_dir(settings: Settings) -> Path:
    return settings.data_dir / "bench"


def passage_index(uri: str, corpus_uri: str) -> int | None:
    """The corpus index in a loader uri ``<corpus path>#<index>``; None for other documents."""
    base, sep, tail = uri.rpartition("#")
    if not sep or base != corpus_uri or not tail.isdigit():
        return None
    return int(tail)


@contextmanager
def bench_store(
    corpus: Path,
    settings: Settings,
    work_dir: Path | None = None,
    embedder: Embedder | None = None,
    progress: ProgressHook | None = None,
    store: str = "embedded",
) -> Iterator[BenchStore]:
    """Open (building first when needed) the bench store for ``corpus`` on ``store``
    (embedded or neo4j); closes it on exit."""
    if store not in STORES:
        raise ConfigError(f"unknown store {store!r}; choose from {', '.join(STORES)}")
    if not corpus.is_file():
        raise InputError(str(corpus), "no such file")
    if store == "neo4j":
        from bench.neo4j_store import neo4j_bench_store

        with neo4j_bench_store(corpus, settings, work_dir, embedder, progress) as bs:
            yield bs
        return
    passages = read_corpus(corpus)
    sha = corpus_sha256(corpus)
    directory = (work_dir or default_work_dir(settings)) / sha[:12]
    local = settings.model_copy(update={"data_dir": directory, "store": "embedded"})
    with exclusive(directory):
        container, marker = _open(local, embedder, directory, sha, corpus)
        try:
            reused = marker is not None
            if marker is None:
                marker = _ingest(container, corpus, sha, directory, progress)
            yield BenchStore.opened(
                container, directory, corpus, sha, passages, marker, reused, str(directory)
            )
        finally:
            container.store.close()


@contextmanager
def exclusive(directory: Path) -> Iterator[None]:
    """Hold a lock beside the store for the whole run: a second run on the same corpus would
    otherwise wipe or resume files that the first one has open."""
    import fcntl

    directory.parent.mkdir(parents=True, exist_ok=True)
    with (directory.parent / f"{directory.name}.lock").open("w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise StoreError(
                f"the bench store {directory} is in use by another benchmark run; "
                "wait for it to finish (it will be reused)"
            ) from exc
        yield


def identity(container: Container, sha: str) -> dict[str, Any]:
    """What a bench store's content depends on."""
    return {
        "corpus_sha256": sha,
        "extractor_version": container.ingestor().extractor_version,
        "embedding_model": container.embedder.model_name,
        "chunking": container.settings.chunking.model_dump(),
    }


def _open(
    local: Settings, embedder: Embedder | None, directory: Path, sha: str, corpus: Path
) -> tuple[Container, dict[str, Any] | None]:
    """The opened container, and the completion marker when the store can be used as is."""

    def fresh() -> Container:
        container = build(local)
        if embedder is not None:
            container.embedder = embedder
        return container

    container = fresh()
    wanted = identity(container, sha)
    marker = _read_marker(directory / MARKER)
    if matches(marker, wanted):
        try:
            container.store.open()
            return container, marker
        except SchemaVersionError:
            container = fresh()
    # A killed build of the same corpus from the same path is resumed when no ingest call
    # died inside it (see the module docstring).
    started = {**wanted, "corpus_uri": str(corpus.resolve())}
    if matches(_read_marker(directory / STARTED), started) and not died_inside(directory):
        try:
            container.store.open()
            return container, None
        except SchemaVersionError:
            container = fresh()
    _wipe(directory)
    directory.mkdir(parents=True, exist_ok=True)
    _write_marker(directory / STARTED, started)
    container.store.open()
    return container, None


def died_inside(data_dir: Path) -> bool:
    """Whether an ingest call into the store at ``data_dir`` died before completing."""
    return bool(RunMarkers(runs_dir(data_dir)).leftover())


def _ingest(
    container: Container,
    corpus: Path,
    sha: str,
    directory: Path,
    progress: ProgressHook | None,
) -> dict[str, Any]:
    marker = ingest_corpus(container, corpus, sha, progress)
    _write_marker(directory / MARKER, marker)
    (directory / STARTED).unlink(missing_ok=True)
    return marker


def ingest_corpus(
    container: Container, corpus: Path, sha: str, progress: ProgressHook | None
) -> dict[str, Any]:
    """Ingest the whole corpus into the opened store; the completion marker describing it."""
    container.store.init_schema()
    started = time.perf_counter()
    report = container.ingestor().ingest_paths([corpus], progress)
    if report.failed:
        raise report.failed[0]
    return {
        **identity(container, sha),
        # Document ids derive from this uri, so a later run from another path still maps.
        "corpus_uri": str(corpus.resolve()),
        "documents": report.documents_seen,
        "resumed_with_unchanged": report.unchanged,
        "chunks_written": report.chunks_written,
        "ingest_seconds": round(time.perf_counter() - started, 2),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def matches(marker: dict[str, Any] | None, expected: dict[str, Any]) -> bool:
    return marker is not None and all(marker.get(k) == v for k, v in expected.items())


def _write_marker(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(tmp, path)


def _read_marker(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _wipe(directory: Path) -> None:
    """Remove the graph and marker; cached passage embeddings (``*.npy``) stay valid."""
    if not directory.is_dir():
        return
    for child in directory.iterdir():
        if child.suffix == ".npy":
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def doc_map(container: Container, corpus_uri: str) -> dict[str, int]:
    mapping: dict[str, int] = {}
    offset = 0
    while True:
        page = container.store.list_documents(offset, _PAGE)
        for info in page:
            index = passage_index(info.uri, corpus_uri)
            if index is not None:
                mapping[info.id] = index
        if len(page) < _PAGE:
            return mapping
        offset += _PAGE
