"""Small invented corpora written to a temp folder and ingested by the rules, for tests that
read a few documents through the real pipeline."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import SentenceTransformerEmbedder


def ingest_docs(container: Container, folder: Path, docs: Mapping[str, str]) -> None:
    """``docs`` (file name -> text) written under ``folder`` and ingested into ``container``."""
    folder.mkdir(parents=True)
    for name, text in docs.items():
        (folder / name).write_text(text, encoding="utf-8")
    container.ingestor().ingest_paths([folder])


def rules_graph(
    tmp_path: Path, embedder: SentenceTransformerEmbedder, docs: Mapping[str, str]
) -> Container:
    """``docs`` ingested into an open embedded store under ``tmp_path``, the graph built by
    the rules alone (a test's model call is then the answerer's, never extraction's)."""
    settings = Settings(data_dir=tmp_path / "kg")
    extraction = settings.extraction.model_copy(update={"llm_enabled": False})
    container = build(settings.model_copy(update={"extraction": extraction}))
    container.embedder = embedder
    container.store.open()
    container.store.init_schema()
    try:
        ingest_docs(container, tmp_path / "corpus", docs)
    except BaseException:
        container.store.close()
        raise
    return container
