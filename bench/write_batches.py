"""What each write batch of an ingest costs as the embedded store grows.

    python -m bench.write_batches CORPUS.json [--limit N] [--then M [M ...]] [--out result.json]

Ingests the first ``--limit`` passages of a corpus into a fresh temporary embedded store and
times every ``upsert_documents`` call (one write batch: its transactions, commits and
checkpoints), then, for each ``--then`` size, ingests that many further passages into the
same store, as a sync into a store that already has its indexes would. Prints one JSON object:
per ingest its batches (documents, seconds), their sum and the whole ingest's seconds. The
batch sizes are the settings' (``KG_INGEST__BATCH_DOCUMENTS``, ``KG_INGEST__BATCH_GROWTH``).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.environment import describe
from bench.report import emit
from graph_schema import DocumentGraph
from kg.container import build
from kg.settings import Settings


def run(corpus: Path, limit: int, then: Sequence[int], work: Path) -> dict[str, Any]:
    items = json.loads(corpus.read_text(encoding="utf-8"))
    settings = Settings(data_dir=work / "store")
    container = build(settings)
    container.store.open()
    container.store.init_schema()
    batches: list[tuple[int, float]] = []
    upsert = container.store.upsert_documents

    def timed(graphs: Sequence[DocumentGraph]) -> None:
        started = time.perf_counter()
        upsert(graphs)
        batches.append((len(graphs), round(time.perf_counter() - started, 3)))

    container.store.upsert_documents = timed  # type: ignore[method-assign]
    runs = []
    start = 0
    for size in [limit, *then]:
        part = work / f"passages-{start}-{start + size}.json"
        part.write_text(json.dumps(items[start : start + size]), encoding="utf-8")
        batches.clear()
        began = time.perf_counter()
        report = container.ingestor().ingest_paths([part], None)
        runs.append(
            {
                "passages": size,
                "store_documents_before": start,
                "ingest_s": round(time.perf_counter() - began, 1),
                "write_s": round(sum(s for _, s in batches), 2),
                "batches": [{"documents": n, "seconds": s} for n, s in batches],
                "failed": len(report.failed),
            }
        )
        start += size
    result = {
        "corpus": corpus.name,
        "ingest": settings.ingest.model_dump(),
        "runs": runs,
        "environment": describe(container),
    }
    container.store.close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.write_batches", description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--limit", type=int, default=2000)
    parser.add_argument("--then", type=int, nargs="*", default=[])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kg-write-batches-") as work:
        result = run(args.corpus, args.limit, args.then, Path(work))
    emit(result, args.out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
