"""An ingest call that dies after committing some batches, then run again, ends with the graph
a clean build gives: the rerun deletes what the dead call committed and resolves those documents
again together with the rest."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.errors import StoreError
from extraction.config import IngestSettings
from extraction.loaders import SourceDocument
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder

# The first document writes "according" in lower case (and has a weak word of its own, so the
# extractor records its lower-case words), the second starts a sentence with "According":
# across one call that is evidence the capitalised word is no name.
DOCS = [
    SourceDocument(
        uri="mem://harbour",
        title="Harbour Notes",
        text="Dunmore staff met according to its plan. The Harbour Board funds the Kelby Clinic.",
    ),
    SourceDocument(
        uri="mem://clinic",
        title="Clinic Notes",
        text="According to the Kelby Clinic, waiting lists fell in Ravensford.",
    ),
]


def _container(data: Path, embedder: SentenceTransformerEmbedder) -> Container:
    c = build(Settings(data_dir=data, ingest=IngestSettings(batch_documents=1)))
    c.embedder = embedder
    return c


def _names(c: Container) -> set[str]:
    return set(c.store.export_graph().entity_names)


def _die_after_first_batch(c: Container, monkeypatch: pytest.MonkeyPatch) -> None:
    real = c.store.upsert_documents
    calls = {"n": 0}

    def upsert(graphs: object) -> None:
        calls["n"] += 1
        if calls["n"] > 1:
            raise StoreError("killed")  # the process dies here; batch 1 is committed
        real(graphs)  # type: ignore[arg-type]

    monkeypatch.setattr(c.store, "upsert_documents", upsert)
    with pytest.raises(StoreError, match="killed"):
        c.ingestor().ingest_documents(DOCS)
    monkeypatch.undo()


def test_rerun_after_a_death_equals_a_clean_build(
    tmp_path: Path, embedder: SentenceTransformerEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = _container(tmp_path / "clean", embedder)
    with clean.store:
        clean.store.init_schema()
        clean.ingestor().ingest_documents(DOCS)
        expected = _names(clean)
        counts = clean.store.counts()
    assert "According" not in expected and "Kelby Clinic" in expected

    for redo in (True, False):
        data = tmp_path / f"redo-{redo}"
        c = _container(data, embedder)
        with c.store:
            c.store.init_schema()
            _die_after_first_batch(c, monkeypatch)
            assert c.store.counts().documents == 1
            if not redo:  # what the rerun did before markers: the evidence is lost
                shutil.rmtree(data / "ingest-runs")
            report = c.ingestor().ingest_documents(DOCS)
            names = _names(c)
            if redo:
                assert report.redone == 1 and report.added == 2 and report.updated == 0
                assert names == expected and c.store.counts() == counts
                assert not list((data / "ingest-runs").iterdir())
            else:
                assert "According" in names  # the divergence the markers prevent
