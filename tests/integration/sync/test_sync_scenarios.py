"""Incremental sync against a clean build, on the real embedded store (and on Neo4j for the
add / modify / delete scenario)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from core.errors import ConfigError
from extraction.facts import DocFacts, ExtractionStats
from extraction.spacy_rules import SpacyRuleExtractor
from retrieval.embedder import Embedder
from tests.conftest import DEMO
from tests.integration.sync.conftest import clean_build, fingerprint, opened, write_docs
from tests.stores import both_stores

DEMO_FILES = [
    "ncct-annual-plan-2026-27.md",
    "nhcp-about-the-partnership.md",
    "nhcp-digital-strategy-2026-2029.md",
    "ncct-board-paper-virtual-wards.md",
]


class BumpedExtractor:
    """The same rules under a newer version label, as a release of the extractor would be."""

    def __init__(self) -> None:
        self._rules = SpacyRuleExtractor()

    @property
    def version(self) -> str:
        return f"{self._rules.version}+test-bump"

    def extract_many(self, docs: Sequence[tuple[str, Sequence[str]]]) -> list[DocFacts]:
        return self._rules.extract_many(docs)

    def usage(self) -> ExtractionStats:
        return self._rules.usage()


class FailingExtractor(BumpedExtractor):
    """Fails on documents whose title says so, like a model that chokes on one input."""

    @property
    def version(self) -> str:
        return self._rules.version

    def extract_many(self, docs: Sequence[tuple[str, Sequence[str]]]) -> list[DocFacts]:
        for title, _ in docs:
            if "Broken" in title:
                raise ValueError(f"cannot extract {title!r}")
        return self._rules.extract_many(docs)


class BrokenExtractor(BumpedExtractor):
    """A new extractor that cannot work at all, as with a model setting naming no model."""

    @property
    def version(self) -> str:
        return f"{self._rules.version}+missing-model"

    def extract_many(self, docs: Sequence[tuple[str, Sequence[str]]]) -> list[DocFacts]:
        raise ConfigError("KG_EXTRACTION__SPACY_MODEL='en_x' is not an installed spaCy pipeline")


@both_stores
@pytest.mark.usefixtures("store_overrides")  # Neo4j: the test database, emptied
def test_add_modify_delete_equals_clean_build(
    tmp_path: Path, embedder: Embedder, store_kind: str
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in DEMO_FILES[:3]:
        shutil.copy(DEMO / name, src / name)
    with opened(tmp_path / "kg", embedder, kind=store_kind) as (c, syncer):
        first = syncer.sync([src])
        assert (len(first.added), first.unchanged, first.failed) == (3, 0, [])
        assert first.refreshed and not first.removed

        plan = src / DEMO_FILES[0]
        plan.write_text(
            plan.read_text(encoding="utf-8")
            + "\n\nThe Harbour Digital Board (HDB) leads the Coastal Records Programme.\n",
            encoding="utf-8",
        )
        (src / DEMO_FILES[1]).unlink()
        shutil.copy(DEMO / DEMO_FILES[3], src / DEMO_FILES[3])
        second = syncer.sync([src])
        assert [Path(u).name for u in second.added] == [DEMO_FILES[3]]
        assert [Path(u).name for u in second.changed] == [DEMO_FILES[0]]
        assert [Path(u).name for u in second.removed] == [DEMO_FILES[1]]
        assert (second.unchanged, second.reextracted, second.failed) == (1, [], [])
        synced = fingerprint(c.store)

        third = syncer.sync([src])
        assert third.unchanged == 3 and not third.changed_anything and not third.refreshed
        assert fingerprint(c.store) == synced

    assert synced == clean_build([src], tmp_path / "clean", embedder, store_kind)


def test_extractor_bump_reextracts_everything_once(tmp_path: Path, embedder: Embedder) -> None:
    src = tmp_path / "src"
    write_docs(src, 0, 5)
    with opened(tmp_path / "kg", embedder) as (c, syncer):
        assert len(syncer.sync([src]).added) == 5
        before = fingerprint(c.store)
    with opened(tmp_path / "kg", embedder, BumpedExtractor()) as (c, syncer):
        bumped = syncer.sync([src])
        assert len(bumped.reextracted) == 5
        assert (bumped.added, bumped.changed, bumped.unchanged) == ([], [], 0)
        versions = {d.extractor_version for d in c.store.list_documents(0, 100)}
        [stored] = versions
        assert stored == syncer.extractor_version
        assert stored.startswith(f"{BumpedExtractor().version}|")
        after = syncer.sync([src])
        assert after.unchanged == 5 and not after.changed_anything and not after.refreshed
        graph = fingerprint(c.store)
    # The same rules: the graph is the same apart from the version label.
    relabel = [(i, u, h, stored, n) for i, u, h, _, n in before["documents"]]
    assert graph == {**before, "documents": relabel}


def test_a_broken_extractor_does_not_empty_the_graph(tmp_path: Path, embedder: Embedder) -> None:
    src = tmp_path / "src"
    write_docs(src, 0, 8)
    with opened(tmp_path / "kg", embedder) as (c, syncer):
        assert len(syncer.sync([src]).added) == 8
    with opened(tmp_path / "kg", embedder, BrokenExtractor()) as (c, syncer):
        broken = syncer.sync([src])
        assert len(broken.failed) == 8 and not broken.changed_anything
        assert {f.reason for f in broken.failed} == {
            "ConfigError: KG_EXTRACTION__SPACY_MODEL='en_x' is not an installed spaCy pipeline"
        }
        # Only the first document went before the extractor was known to be broken.
        assert c.store.counts().documents == 7
    with opened(tmp_path / "kg", embedder, BumpedExtractor()) as (c, syncer):
        fixed = syncer.sync([src])
        assert (len(fixed.added), len(fixed.reextracted), fixed.failed) == (1, 7, [])


def test_failures_are_recorded_and_retried(tmp_path: Path, embedder: Embedder) -> None:
    src = tmp_path / "src"
    write_docs(src, 0, 4)
    broken = src / "broken.md"
    broken.write_text("# Broken Report\n\nThe Northdale Health Partnership met.\n")
    undecodable = src / "latin1.md"
    undecodable.write_bytes("# Café Report\n\nThe Café Board met.\n".encode("latin-1"))
    with opened(tmp_path / "kg", embedder, FailingExtractor()) as (c, syncer):
        first = syncer.sync([src])
        assert len(first.added) == 4
        reasons = {Path(f.source).name: f.reason for f in first.failed}
        assert set(reasons) == {"broken.md", "latin1.md"}
        assert "cannot extract 'Broken Report'" in reasons["broken.md"]
        assert "not valid UTF-8" in reasons["latin1.md"]

        undecodable.write_text("# Café Report\n\nThe Café Board met.\n", encoding="utf-8")
        second = syncer.sync([src])
        assert [Path(u).name for u in second.added] == ["latin1.md"]
        assert [Path(f.source).name for f in second.failed] == ["broken.md"]
        assert second.unchanged == 4
    # A file that stops loading keeps its documents: it is not taken for a deleted file.
    undecodable.write_bytes(b"\xff\xfe\x00garbage")
    with opened(tmp_path / "kg", embedder) as (c, syncer):
        third = syncer.sync([src])
        assert [Path(u).name for u in third.added] == ["broken.md"]
        assert [Path(f.source).name for f in third.failed] == ["latin1.md"]
        assert not third.removed and c.store.counts().documents == 6


def test_only_synced_roots_lose_documents(tmp_path: Path, embedder: Embedder) -> None:
    kept, synced = tmp_path / "kept", tmp_path / "synced"
    write_docs(kept, 0, 2)
    write_docs(synced, 10, 3)
    corpus = synced / "corpus.json"
    passages = [
        {"title": f"Passage {i}", "text": f"The Lake {i} Trust runs ferries."} for i in range(4)
    ]
    corpus.write_text(json.dumps(passages), encoding="utf-8")
    with opened(tmp_path / "kg", embedder) as (c, syncer):
        c.ingestor().ingest_paths([kept])
        assert len(syncer.sync([synced]).added) == 7

        # A root that is not there deletes nothing (an unmounted volume must not empty it).
        shutil.move(synced, tmp_path / "away")
        gone = syncer.sync([synced])
        assert gone.removed == [] and [f.reason for f in gone.failed] == [
            "no such file or directory"
        ]
        shutil.move(tmp_path / "away", synced)

        (synced / "report-010.md").unlink()
        corpus.write_text(json.dumps(passages[:2]), encoding="utf-8")
        report = syncer.sync([synced])
        removed = sorted(Path(u).name for u in report.removed)
        assert removed == ["corpus.json#2", "corpus.json#3", "report-010.md"]
        assert report.unchanged == 4 and not report.added
        uris = {d.uri for d in c.store.list_documents(0, 100)}
        assert {str((kept / f"report-{i:03d}.md").resolve()) for i in range(2)} <= uris
        assert len(uris) == 6
        graph = fingerprint(c.store)
    assert graph == clean_build([kept, synced], tmp_path / "clean", embedder)
