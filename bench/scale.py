"""Cost against corpus size (``kg bench scale``): corpora of k x a base corpus, the original
plus k - 1 name-shifted copies (bench/name_shift.py), each built into its own bench store and
measured for ingest passages/s, ``graph`` and ``dense`` p50 / p95 (bench/latency.py), the
resident memory of a process answering questions as the API does (bench/rss.py, in a child
process on the built store) and bytes on disk per passage; a plot of each against size.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import latency
from bench.datasets import corpus_sha256
from bench.name_shift import scaled
from core.errors import ConfigError
from kg.settings import Settings

ProgressHook = Callable[[str, int, int], None]
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class ScaleConfig:
    corpus: Path
    factors: tuple[int, ...] = (1, 2, 5)
    base_passages: int | None = None  # the first N passages as the 1x corpus; None: all
    questions: int = 50
    warmup: int = 5
    rss_questions: int = 20
    work_dir: Path | None = None
    store: str = "embedded"
    # Written after every size with the rows measured so far: a run stopped during a large
    # size keeps the smaller ones.
    partial: Path | None = None


def run(
    config: ScaleConfig, settings: Settings, progress: ProgressHook | None = None
) -> dict[str, Any]:
    if not config.factors or min(config.factors) < 1:
        raise ConfigError("--factors: positive whole numbers, e.g. 1,2,5")
    base = json.loads(config.corpus.read_text(encoding="utf-8"))
    if not isinstance(base, list):
        raise ConfigError("the scale benchmark takes a corpus of {title, text} items")
    base = base[: config.base_passages] if config.base_passages else base
    work = (config.work_dir or settings.data_dir / "bench") / "scale"
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    for factor in sorted(set(config.factors)):
        path = work / f"{config.corpus.stem}-{len(base)}-x{factor}.json"
        if not path.is_file():
            path.write_text(json.dumps(scaled(base, factor), ensure_ascii=False), "utf-8")
        rows.append(_measure(config, settings, path, factor, progress))
        if config.partial is not None:
            config.partial.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps(_result(config, len(base), rows), indent=1)
            config.partial.write_text(text + "\n", encoding="utf-8")
    return _result(config, len(base), rows)


def _result(config: ScaleConfig, base: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "corpus": str(config.corpus),
        "base_passages": base,
        "store": config.store,
        "rows": rows,
    }


def _measure(
    config: ScaleConfig, settings: Settings, path: Path, factor: int, progress: ProgressHook | None
) -> dict[str, Any]:
    got = latency.run(
        latency.LatencyConfig(
            path,
            ("graph", "dense"),
            config.questions,
            None,
            config.warmup,
            5,
            work_dir=config.work_dir,
            store=config.store,
        ),
        settings,
        progress,
    )
    corpus = got["corpus"]
    passages = int(corpus["passages"])
    ingest_s = float(corpus["ingest_s"] or 0.0)
    row: dict[str, Any] = {
        "factor": factor,
        "passages": passages,
        "corpus_sha256": corpus_sha256(path),
        "store_reused": corpus["store_reused"],
        "ingest_s": round(ingest_s, 1),
        "ingest_passages_per_s": round(passages / ingest_s, 2) if ingest_s else None,
        "counts": got["counts"]["store"],
        "graph": got["presets"]["graph"],
        "dense": got["presets"]["dense"],
    }
    store_dir: Path | None = None
    if config.store == "embedded":
        store_dir = Path(corpus["store"])
        size = sum(f.stat().st_size for f in store_dir.rglob("*") if f.is_file())
        row["disk_bytes"] = size
        row["disk_bytes_per_passage"] = round(size / passages)
    row |= _rss(config.store, store_dir, path, config.rss_questions, passages)
    return row


def _rss(
    store: str, store_dir: Path | None, corpus: Path, questions: int, passages: int
) -> dict[str, Any]:
    """bench/rss.py in a child process on the built store: memory after the embedder loaded,
    and after graph searches and agent contexts (what the API process holds for the graph).
    On Neo4j the child reads the database of this process's KG_NEO4J__* settings, as the
    latency run did; the process should hold no copy of the graph (its read model is Neo4j's)."""
    env = {**os.environ, "KG_STORE": store}
    if store_dir is not None:
        env["KG_DATA_DIR"] = str(store_dir)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    cmd = [sys.executable, "-m", "bench.rss", "--corpus", str(corpus), "--count", str(questions)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    graph_mb = float(got["rss_mb_after"]) - float(got["rss_mb_loaded"])
    return {
        "api_rss_mb": got["rss_mb_after"],
        "api_rss_mb_loaded": got["rss_mb_loaded"],
        "api_graph_kb_per_passage": round(1024 * graph_mb / passages, 1),
        "read_model": got.get("read_model", ""),
    }


def plot(result: dict[str, Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows: Sequence[dict[str, Any]] = result["rows"]
    x = [r["passages"] for r in rows]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    a = axes[0][0]
    a.plot(x, [r["ingest_passages_per_s"] or 0 for r in rows], "o-")
    a.set_title("ingest passages/s")
    a = axes[0][1]
    for preset in ("graph", "dense"):
        a.plot(x, [r[preset]["p50_ms"] for r in rows], "o-", label=f"{preset} p50")
        a.plot(x, [r[preset]["p95_ms"] for r in rows], "o--", label=f"{preset} p95")
    a.set_title("search latency (ms)")
    a.legend()
    a = axes[1][0]
    a.plot(x, [r.get("api_rss_mb", 0) for r in rows], "o-")
    a.set_title("API process RSS after questions (MB)")
    a = axes[1][1]
    a.plot(x, [r.get("disk_bytes_per_passage", 0) / 1024 for r in rows], "o-")
    a.set_title("disk KB per passage")
    for row in axes:
        for a in row:
            a.set_xlabel("passages")
    fig.suptitle(f"kg bench scale: {Path(result['corpus']).name} on {result['store']}")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)
