"""The two embedded stores, Kùzu (``embedded``) and FalkorDB (``falkordb``), measured in one run
on the same corpora (docs/decisions/embedded-store.md).

Each (corpus, store) is measured in a subprocess of its own, so that its RSS is its own: a
fresh data directory, start-up on it, the whole ingest (passages/s, and the store's own write
and refresh phases), recall of the multihop bench's questions (R@2 / R@5, the multihop bench's
ranking: ``bench.multihop``), per-question latency, RSS of this process and of the database
process (FalkorDB's redis-server; Kùzu runs inside this process), disk per passage, and the
time to reopen the populated store and answer a first query.

    python -m bench.stores_compare --out bench/results/embedded-stores.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.datasets import Passage, derived_questions, read_corpus, read_questions
from bench.metrics import mean, percentile_ms, recall_at_k
from bench.multihop import CHUNK_K, DEPTH, KS
from bench.store import passage_index
from kg.container import Container, build
from kg.settings import Settings

STORES = ("embedded", "falkordb")
MULTIHOP = Path("../shared/bench/multihop")  # from /work/main; --multihop elsewhere
CORPORA: dict[str, tuple[str, str | None]] = {
    "musique": ("musique/musique_train_corpus.json", "musique/musique_train.json"),
    "hotpotqa": ("hotpotqa/hotpotqa_train_corpus.json", "hotpotqa/hotpotqa_train.json"),
    "2wiki": ("2wikimultihopqa/2wikimultihopqa_corpus.json", None),
}
PRESETS = ("graph", "hybrid", "dense")
_SAMPLE_S = 0.25  # RSS sampling period


class RssSampler:
    """Peak RSS of this process and of the store's server process (when it has one), sampled
    from /proc in a background thread."""

    def __init__(self, server_pid: Any) -> None:
        self._server_pid = server_pid  # a callable: the pid may appear after open()
        self.peak = {"python_mb": 0.0, "server_mb": 0.0, "total_mb": 0.0}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def now(self) -> dict[str, float]:
        py = rss_mb(os.getpid())
        pid = self._server_pid()
        srv = rss_mb(pid) if pid else 0.0
        return {"python_mb": py, "server_mb": srv, "total_mb": py + srv}

    def _run(self) -> None:
        while not self._stop.wait(_SAMPLE_S):
            for key, value in self.now().items():
                self.peak[key] = max(self.peak[key], value)


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def disk_bytes(path: Path) -> int:
    """Bytes of the store's files (a Kùzu file and its log, or FalkorDB's AOF directory)."""
    paths = [path, Path(f"{path}.wal")] if path.suffix == ".kuzu" else [path]
    total = 0
    for p in paths:
        if p.is_file():
            total += p.stat().st_size
        elif p.is_dir():
            total += sum(f.stat().st_size for f in p.rglob("*") if f.is_file())
    return total


def write_slice(corpus: Path, n: int, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{corpus.stem}_first_{n}.json"
    data = json.loads(corpus.read_text(encoding="utf-8"))[:n]
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return target


def _store_path(settings: Settings) -> Path:
    return settings.falkordb_path if settings.store == "falkordb" else settings.embedded_path


def _server_pid(container: Container) -> Any:
    return lambda: getattr(container.store, "server_pid", None)


def _stats(seconds: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile_ms(seconds, 50), 1),
        "p95_ms": round(percentile_ms(seconds, 95), 1),
        "mean_ms": round(1000 * mean(seconds), 1),
        "n": len(seconds),
    }


def _recall(
    container: Container, corpus: Path, passages: list[Passage], questions_path: Path, limit: int
) -> dict[str, Any]:
    """R@k of the multihop bench's questions for each preset (its ranking: the passages of the
    top CHUNK_K chunks, first occurrence wins, DEPTH kept), with each question's latency."""
    questions = [q for q in read_questions(questions_path, passages) if q.gold][:limit]
    uri = str(corpus.resolve())
    doc_passage: dict[str, int] = {}
    offset = 0
    while page := container.store.list_documents(offset, 1000):
        for d in page:
            if (i := passage_index(d.uri, uri)) is not None:
                doc_passage[d.id] = i
        offset += len(page)
    searcher = container.searcher()
    out: dict[str, Any] = {}
    for preset in PRESETS:
        recalls: dict[int, list[float]] = {k: [] for k in KS}
        seconds: list[float] = []
        for q in questions:
            t0 = time.perf_counter()
            hits = searcher.search(q.text, CHUNK_K, preset)
            seconds.append(time.perf_counter() - t0)
            found = (doc_passage.get(h.doc_id) for h in hits)
            ranked = list(dict.fromkeys(i for i in found if i is not None))[:DEPTH]
            for k in KS:
                recalls[k].append(recall_at_k(ranked, q.gold, k))
        out[preset] = {
            **{f"R@{k}": round(mean(recalls[k]), 4) for k in KS},
            "latency": _stats(seconds),
        }
    out["questions"] = len(questions)
    return out


def _latency(container: Container, passages: list[Passage], n: int) -> dict[str, Any]:
    """Per-question latency of passage-derived questions (as ``kg bench latency``): 10 to
    warm up, then ``n`` timed, presets interleaved."""
    texts = derived_questions(passages, n + 10, seed=0)
    searcher = container.searcher()
    for q in texts[:10]:
        for preset in ("graph", "dense"):
            searcher.search(q, 10, preset)
    seconds: dict[str, list[float]] = {"graph": [], "dense": []}
    for i, q in enumerate(texts[10:]):
        order = ("graph", "dense") if i % 2 == 0 else ("dense", "graph")
        for preset in order:
            t0 = time.perf_counter()
            searcher.search(q, 10, preset)
            seconds[preset].append(time.perf_counter() - t0)
    return {p: _stats(s) for p, s in seconds.items()}


def measure(
    store: str, corpus: Path, questions: Path | None, work: Path, limit: int
) -> dict[str, Any]:
    """One store on one corpus, from an empty data directory (run in its own process)."""
    import shutil

    data_dir = work / store
    shutil.rmtree(data_dir, ignore_errors=True)
    settings = Settings(data_dir=data_dir, store=store)  # type: ignore[arg-type]
    container = build(settings)
    passages = read_corpus(corpus)
    out: dict[str, Any] = {"store": store, "corpus": str(corpus), "passages": len(passages)}
    with RssSampler(_server_pid(container)) as rss:
        t0 = time.perf_counter()
        container.store.open()
        container.store.init_schema()
        out["startup_empty_s"] = round(time.perf_counter() - t0, 3)
        t0 = time.perf_counter()
        report = container.ingestor().ingest_paths([corpus])
        seconds = time.perf_counter() - t0
        if report.failed:
            raise report.failed[0]
        out["ingest"] = {
            "seconds": round(seconds, 2),
            "passages_per_s": round(len(passages) / seconds, 2),
            "store_write_s": round(report.phases.get("write", 0.0), 2),
            "store_refresh_s": round(report.phases.get("refresh", 0.0), 2),
            "phases_s": {k: round(v, 2) for k, v in report.phases.items()},
        }
        out["counts"] = container.store.counts().as_dict()
        out["rss_after_ingest_mb"] = rss.now()
        if questions is not None:
            out["recall"] = _recall(container, corpus, passages, questions, limit)
        else:
            out["latency"] = _latency(container, passages, limit)
        out["rss_after_queries_mb"] = rss.now()
        container.store.close()
    out["rss_peak_mb"] = rss.peak
    size = disk_bytes(_store_path(settings))
    out["disk"] = {"bytes": size, "bytes_per_passage": round(size / max(1, len(passages)))}
    again = build(settings)
    t0 = time.perf_counter()
    again.store.open()
    again.store.counts()
    out["reopen_first_query_s"] = round(time.perf_counter() - t0, 3)
    again.store.close()
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd")
    one = sub.add_parser("measure")
    one.add_argument("--store", choices=STORES, required=True)
    one.add_argument("--corpus", type=Path, required=True)
    one.add_argument("--questions", type=Path)
    one.add_argument("--work", type=Path, required=True)
    one.add_argument("--limit", type=int, default=100)
    one.add_argument("--out", type=Path, required=True)
    parser.add_argument("--corpora", default="musique,hotpotqa")
    parser.add_argument("--wiki-passages", type=int, default=0, help="2Wiki slice (0: skip)")
    parser.add_argument("--multihop", type=Path, default=MULTIHOP, help="the shared sets' folder")
    parser.add_argument("--work", type=Path, default=Path(".kg/bench/stores-compare"))
    parser.add_argument("--out", type=Path, default=Path("bench/results/embedded-stores.json"))
    both = sub.add_parser("combine", help="gather measure outputs (NAME-STORE.json files)")
    both.add_argument("files", type=Path, nargs="+")
    both.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.cmd == "combine":
        gathered: dict[str, Any] = {"measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        for f in args.files:
            name, _, store = f.stem.rpartition("-")
            gathered.setdefault(name, {})[store] = json.loads(f.read_text(encoding="utf-8"))
        gathered["summary"] = summary(gathered)
        args.out.write_text(json.dumps(gathered, indent=2), encoding="utf-8")
        print(json.dumps(gathered["summary"], indent=2))
        return
    if args.cmd == "measure":
        result = measure(args.store, args.corpus, args.questions, args.work, args.limit)
        args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
        return
    runs: list[tuple[str, Path, Path | None]] = []
    for name in (n for n in args.corpora.split(",") if n):
        corpus_name, questions_name = CORPORA[name]
        questions_path = args.multihop / questions_name if questions_name else None
        runs.append((name, args.multihop / corpus_name, questions_path))
    if args.wiki_passages:
        corpus = write_slice(
            args.multihop / CORPORA["2wiki"][0], args.wiki_passages, args.work / "corpora"
        )
        runs.append(("2wiki", corpus, None))
    results: dict[str, Any] = {"measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    for name, corpus, questions in runs:
        for store in STORES:
            target = args.work / f"{name}-{store}.json"
            cmd = [sys.executable, "-m", "bench.stores_compare", "measure", "--store", store]
            cmd += ["--corpus", str(corpus), "--work", str(args.work / name), "--out", str(target)]
            if questions is not None:
                cmd += ["--questions", str(questions)]
            print(f"{name} on {store} ...", file=sys.stderr, flush=True)
            subprocess.run(cmd, check=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})
            results.setdefault(name, {})[store] = json.loads(target.read_text(encoding="utf-8"))
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(summary(results), indent=2))


def summary(results: dict[str, Any]) -> dict[str, Any]:
    """The headline numbers per corpus and store."""
    out: dict[str, Any] = {}
    for name, by_store in results.items():
        if not isinstance(by_store, dict) or name == "summary":
            continue
        for store, r in by_store.items():
            row = {
                "ingest_passages_per_s": r["ingest"]["passages_per_s"],
                "store_write_s": r["ingest"]["store_write_s"],
                "store_refresh_s": r["ingest"]["store_refresh_s"],
                "peak_total_rss_mb": r["rss_peak_mb"]["total_mb"],
                "server_rss_mb": r["rss_after_queries_mb"]["server_mb"],
                "disk_bytes_per_passage": r["disk"]["bytes_per_passage"],
                "startup_empty_s": r["startup_empty_s"],
                "reopen_first_query_s": r["reopen_first_query_s"],
            }
            for preset, v in r.get("recall", {}).items():
                if isinstance(v, dict):
                    row[preset] = {k: v[k] for k in ("R@2", "R@5")} | {
                        "p50_ms": v["latency"]["p50_ms"]
                    }
            for preset, v in r.get("latency", {}).items():
                row[f"latency_{preset}"] = v
            out.setdefault(name, {})[store] = row
    return out


if __name__ == "__main__":
    main()
