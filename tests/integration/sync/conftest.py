"""Helpers for the sync tests: corpora on disk, stores in temp dirs, and a graph fingerprint
that two stores must share to count as "the same graph"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from extraction.config import IngestSettings
from extraction.facts import Extractor
from extraction.pipeline import Ingestor
from extraction.sync import Syncer
from graph_store import GraphStore
from kg.container import Container, build
from kg.settings import Settings
from retrieval.embedder import Embedder
from tests import stores

KG = [sys.executable, "-m", "kg.cli"]


def write_docs(root: Path, first: int, count: int, variant: str = "") -> list[Path]:
    """Small markdown reports that share some entities (so deletes must keep shared ones and
    drop orphans) and define acronyms (so aliases are exercised)."""
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(first, first + count):
        path = root / f"report-{i:03d}.md"
        path.write_text(
            f"# Report {i} on the Northdale Health Partnership\n\n"
            f"The Northdale Health Partnership (NHP) leads the Project {i} Programme{variant}. "
            f"Person {i} is a member of the Harbour Board. "
            f"The Town {i % 7} Council provides the Service {i} Service.\n\n"
            f"Founded in {1900 + i}, the Project {i} Programme is part of the Northdale Plan. "
            f"It aligns with the Regional Care Strategy (RCS).\n",
            encoding="utf-8",
        )
        paths.append(path)
    return paths


def settings_for(data_dir: Path, batch: int = 64, kind: str = "embedded") -> Settings:
    return Settings(
        data_dir=data_dir, ingest=IngestSettings(batch_documents=batch), **stores.overrides(kind)
    )


@contextmanager
def opened(
    data_dir: Path,
    embedder: Embedder,
    extractor: Extractor | None = None,
    kind: str = "embedded",
) -> Iterator[tuple[Container, Syncer]]:
    """A container on its own store (``kind``'s: Neo4j's is the one test database), and a
    Syncer over it (optionally another extractor)."""
    settings = settings_for(data_dir, kind=kind)
    c = build(settings)
    c.embedder = embedder
    c.store.open()
    c.store.init_schema()
    try:
        ingestor = Ingestor(c.store, c.embedder, extractor or c.extractor, settings)
        syncer = Syncer(c.store, ingestor, settings.ingest.max_file_bytes, data_dir / "sync")
        yield c, syncer
    finally:
        c.store.close()


def fingerprint(store: GraphStore) -> dict[str, Any]:
    """Everything a clean build determines: counts, documents, chunks, entities, mentions,
    relations and chunk order (ingest times and authority scores aside)."""
    exported = store.export_graph()
    docs = store.list_documents(0, 100_000)
    return {
        "counts": store.counts().as_dict(),
        "documents": sorted(
            (d.id, d.uri, d.content_hash, d.extractor_version, d.chunks) for d in docs
        ),
        "chunks": sorted(zip(exported.chunk_ids, exported.chunk_docs, strict=True)),
        "entities": sorted(zip(exported.entity_ids, exported.entity_names, strict=True)),
        "mentions": sorted(exported.mentions),
        "relations": sorted((s, t, ty, round(w, 6)) for s, t, ty, w in exported.relations),
        "next": sorted(exported.next_edges),
    }


def clean_build(
    paths: list[Path], data_dir: Path, embedder: Embedder, kind: str = "embedded"
) -> dict[str, Any]:
    """The graph a fresh store gets from ``kg ingest`` of the same paths (on Neo4j, the test
    database emptied first)."""
    if kind == "neo4j":
        stores.empty_neo4j()
    with opened(data_dir, embedder, kind=kind) as (c, _):
        report = c.ingestor().ingest_paths(paths)
        assert report.written > 0, report
        return fingerprint(c.store)


def kg_env(data_dir: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "KG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1", **extra}


def kg(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*KG, *args], capture_output=True, text=True, env=kg_env(data_dir, **env), timeout=300
    )


def jobs_of(data_dir: Path) -> list[dict[str, Any]]:
    """The raw job records, last record per id."""
    records: dict[str, dict[str, Any]] = {}
    path = data_dir / "jobs" / "jobs.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[record["id"]] = record
    return list(records.values())
