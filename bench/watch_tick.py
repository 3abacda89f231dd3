"""Seconds per ``kg watch`` tick on a tree of unchanged small files.

Usage: ``python -m bench.watch_tick [--files 10000] [--ticks 5] [--workdir DIR]``.
Writes ``--files`` small markdown files, syncs them once into a fresh embedded store, then
times ``--ticks`` further syncs of the unchanged tree (what each ``kg watch`` tick runs) and
prints seconds per tick. The store is filled with a stand-in embedder (a fixed 8-d vector per
text, no model load) and a stand-in extractor (no entities): an unchanged tick calls neither,
so what is timed is the scan, the comparison and the store reads a tick makes. A measurement,
not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from core.names import normalize_name
from extraction.config import IngestSettings
from extraction.facts import ChunkFacts, DocFacts, ExtractionStats
from extraction.sync import Syncer
from kg.settings import Settings

DIM = 8


class StandInEmbedder:
    """A deterministic vector per text: the tick under test never embeds."""

    model_name = "bench-stand-in"
    dimension = DIM

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for t in texts:
            digest = hashlib.blake2b(t.encode(), digest_size=DIM).digest()
            out.append([b / 255 + 0.01 for b in digest])
        return out

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class StandInExtractor:
    """No entities: filling 10,000 documents with the spaCy rules took over 20 minutes on a
    shared machine, and an unchanged tick never extracts."""

    version = "bench-stand-in-1"

    def extract_many(self, docs: Sequence[tuple[str, Sequence[str]]]) -> list[DocFacts]:
        return [
            DocFacts(normalize_name(title), {}, {}, [], [ChunkFacts() for _ in chunks])
            for title, chunks in docs
        ]

    def usage(self) -> ExtractionStats:
        return ExtractionStats()


def _write(root: Path, n: int) -> None:
    for i in range(n):
        sub = root / f"d{i // 500:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"note-{i:05d}.md").write_text(
            f"# Note {i}\n\nThe Harbour Board met Person {i} about Project {i % 97}.\n",
            encoding="utf-8",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--ticks", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="watch-tick-"))
    tree, data = work / "tree", work / "kg"
    if not tree.exists():
        _write(tree, args.files)
    settings = Settings(data_dir=data, ingest=IngestSettings(batch_documents=500))
    from extraction.pipeline import Ingestor
    from graph_store.kuzu.store import KuzuGraphStore

    embedder = StandInEmbedder()
    store = KuzuGraphStore(settings.embedded_path, DIM, embedder.model_name)
    with store:
        store.init_schema()
        ingestor = Ingestor(store, embedder, StandInExtractor(), settings)
        syncer = Syncer(store, ingestor, settings.ingest.max_file_bytes, data / "sync")
        start = time.perf_counter()
        first = syncer.sync([tree])
        print(
            f"first sync: {len(first.added)} added, {first.unchanged} unchanged, "
            f"{len(first.failed)} failed in {time.perf_counter() - start:.1f} s"
        )
        times = []
        for _ in range(args.ticks):
            start = time.perf_counter()
            report = syncer.sync([tree])
            times.append(time.perf_counter() - start)
            assert not report.changed_anything and report.unchanged == args.files, report
        print(
            f"files={args.files} ticks={args.ticks} s/tick median={statistics.median(times):.3f} "
            f"min={min(times):.3f} all={[round(t, 3) for t in times]}"
        )


if __name__ == "__main__":
    main()
