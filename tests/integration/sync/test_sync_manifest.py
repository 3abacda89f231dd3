"""The sync manifest (extraction/manifest.py): an idle tick stats files and reads the graph
version, nothing more; touched, changed, removed files and a lost or corrupt manifest each
lead where they should, on the real embedded store."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import extraction.sync as sync_module
from extraction.manifest import MANIFEST
from extraction.sync import Syncer
from graph_store import GraphStore
from kg.container import Container
from retrieval.embedder import Embedder
from tests.integration.sync.conftest import opened, settings_for, write_docs

N = 4


class StoreSpy:
    """The store, with the name of every method the syncer calls on it recorded."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(self._store, name)


@pytest.fixture()
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every file the syncer hands to the parser."""
    seen: list[Path] = []
    real = sync_module.load_file

    def counting(path: Path, max_bytes: int) -> Any:
        seen.append(path)
        return real(path, max_bytes)

    monkeypatch.setattr(sync_module, "load_file", counting)
    return seen


@pytest.fixture()
def synced(tmp_path: Path, embedder: Embedder) -> Iterator[tuple[Container, Syncer, StoreSpy]]:
    root = tmp_path / "docs"
    write_docs(root, 0, N)
    data = tmp_path / "kg"
    with opened(data, embedder) as (c, _):
        spy = StoreSpy(c.store)
        settings = settings_for(data)
        syncer = Syncer(spy, c.ingestor(), settings.ingest.max_file_bytes, data / "sync")  # type: ignore[arg-type]
        first = syncer.sync([root])
        assert len(first.added) == N and not first.failed
        assert (data / "sync" / MANIFEST).exists()
        spy.calls.clear()
        yield c, syncer, spy


def _root(c: Container) -> Path:
    return c.settings.data_dir.parent / "docs"


def test_an_unchanged_tree_is_neither_parsed_nor_read_from_the_store(
    synced: tuple[Container, Syncer, StoreSpy], parses: list[Path]
) -> None:
    c, syncer, spy = synced
    for _ in range(2):
        report = syncer.sync([_root(c)])
        assert report.files == N and report.unchanged == N
        assert not report.changed_anything and not report.failed
    assert parses == []
    # The graph version alone: it is what tells a write made elsewhere (kg delete, the API).
    assert set(spy.calls) == {"graph_version"}


def test_a_touched_file_with_the_same_bytes_is_not_extracted_again(
    synced: tuple[Container, Syncer, StoreSpy], parses: list[Path]
) -> None:
    c, syncer, spy = synced
    path = _root(c) / "report-001.md"
    later = path.stat().st_mtime_ns + 60 * 10**9
    os.utime(path, ns=(later, later))
    report = syncer.sync([_root(c)])
    assert not report.changed_anything and report.unchanged == N
    assert parses == [] and set(spy.calls) == {"graph_version"}
    entry = json.loads((c.settings.data_dir / "sync" / MANIFEST).read_text())["files"]
    assert entry[str(path.resolve())]["mtime_ns"] == later


def test_a_changed_file_is_extracted_again(
    synced: tuple[Container, Syncer, StoreSpy], parses: list[Path]
) -> None:
    c, syncer, _ = synced
    path = _root(c) / "report-002.md"
    path.write_text(path.read_text() + "\nThe Harbour Board approved it.\n")
    report = syncer.sync([_root(c)])
    assert report.changed == [str(path.resolve())]
    assert report.unchanged == N - 1
    again = syncer.sync([_root(c)])
    assert not again.changed_anything and again.unchanged == N


def test_a_removed_file_takes_its_document(
    synced: tuple[Container, Syncer, StoreSpy], parses: list[Path]
) -> None:
    c, syncer, _ = synced
    path = _root(c) / "report-003.md"
    path.unlink()
    report = syncer.sync([_root(c)])
    assert report.removed == [str(path.resolve())]
    assert c.store.counts().documents == N - 1


@pytest.mark.parametrize("damage", ["lost", "corrupt", "wrong shape", "lying"])
def test_a_lost_or_corrupt_manifest_is_rebuilt_and_deletes_nothing(
    synced: tuple[Container, Syncer, StoreSpy], parses: list[Path], damage: str
) -> None:
    c, syncer, _ = synced
    manifest = c.settings.data_dir / "sync" / MANIFEST
    if damage == "lost":
        manifest.unlink()
    elif damage == "corrupt":
        manifest.write_bytes(manifest.read_bytes()[:40])
    elif damage == "wrong shape":
        manifest.write_text(json.dumps({"header": {}, "files": {"x": {"size": "?"}}}))
    else:  # claims files under the root that are not there, and lists none that are
        body = json.loads(manifest.read_text())
        body["files"] = {str(_root(c).resolve() / "ghost.md"): body["files"].popitem()[1]}
        manifest.write_text(json.dumps(body))
    report = syncer.sync([_root(c)])
    assert len(parses) == N  # a full sync
    assert report.removed == [] and report.unchanged == N and not report.changed_anything
    assert c.store.counts().documents == N
    parses.clear()
    assert syncer.sync([_root(c)]).unchanged == N
    assert parses == []  # rebuilt


def test_a_write_made_elsewhere_is_noticed(
    synced: tuple[Container, Syncer, StoreSpy], parses: list[Path]
) -> None:
    c, syncer, _ = synced
    gone = c.store.list_documents(0, 10)[0]
    assert c.store.delete_document(gone.id)  # as `kg delete` or the API would
    report = syncer.sync([_root(c)])
    assert report.added == [gone.uri]
    assert c.store.counts().documents == N


def test_a_file_whose_document_failed_is_retried_next_tick(
    synced: tuple[Container, Syncer, StoreSpy], parses: list[Path]
) -> None:
    c, syncer, _ = synced
    bad = _root(c) / "empty.md"
    bad.write_text("   ")
    report = syncer.sync([_root(c)])
    assert [f.source for f in report.failed] == [str(bad.resolve())]
    parses.clear()
    # A file that fails to load is reported again by an idle tick, without a parse.
    again = syncer.sync([_root(c)])
    assert [f.reason for f in again.failed] == [f.reason for f in report.failed]
    assert parses == []
