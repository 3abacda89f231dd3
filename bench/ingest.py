"""Ingest throughput against embedding alone: what extraction, resolution and writes cost.

One run, one process: the model is loaded and warmed first, then the corpus's passages are
embedded alone (same model, same batch size), then the whole ingest runs on the rules-only
path into a fresh temporary embedded store, or into the Neo4j database of ``KG_NEO4J__*``
(``--store neo4j``: emptied first, then left holding the corpus). The ratio of the two
throughputs says how much the graph costs on top of the embeddings it cannot do without (1.0:
nothing; the target is 0.8). ``--store embedded,neo4j`` measures both stores in one process,
one after the other, and adds Neo4j's ingest rate as a share of the embedded one's
(``neo4j_vs_embedded``; issue 32's target: 0.8).

    python -m bench.ingest CORPUS.json [--limit N] [--store embedded,neo4j] [--out result.json]
        [--profile out.pstats] [--digest]

``--digest`` adds a digest of every graph written and of the store (bench/ingest_digest.py):
two runs with equal digests wrote the same graph.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.environment import describe
from bench.ingest_digest import GraphRecorder
from bench.reliability.digest import graph_digest
from bench.report import emit
from extraction.embed_feed import bulk_path
from extraction.loaders import discover, load_file
from extraction.pipeline import embedding_input
from kg.container import build
from kg.settings import Settings, get_settings
from retrieval.embedder import Embedder

TARGET_RATIO = 0.8
STORES = ("embedded", "neo4j")
_PROFILE_ROWS = 25
_SAMPLE_S = 0.5
_THREADS_SHOWN = 6


def run(
    corpus: Path,
    *,
    settings: Settings | None = None,
    limit: int | None = None,
    profile: Path | None = None,
    embedder: Embedder | None = None,
    store: str = "embedded",
    digest: bool = False,
) -> dict[str, Any]:
    """Measure one corpus (md/txt/html/pdf file, folder, or HippoRAG corpus JSON).

    ``settings`` gives the embedding model, batch size and chunking (default: the process
    settings); the store is a fresh embedded one in a temporary folder, or with
    ``store="neo4j"`` the Neo4j database of ``settings.neo4j``, emptied first; the LLM is
    never called. ``profile`` writes cProfile stats of the ingest there, and the heaviest
    functions go into the result. ``embedder`` reuses an already loaded model. ``digest``
    records what the ingest writes and digests it (``result["digest"]``)."""
    base = settings or get_settings()
    workdir = Path(tempfile.mkdtemp(prefix="kg-bench-ingest-"))
    cfg = base.model_copy(
        update={
            "data_dir": workdir / "kg",
            "store": store,
            "extraction": base.extraction.model_copy(update={"llm_enabled": False}),
        }
    )
    try:
        return _measure(corpus, cfg, limit, profile, embedder, digest)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _measure(
    corpus: Path,
    cfg: Settings,
    limit: int | None,
    profile: Path | None,
    embedder: Embedder | None,
    digest: bool = False,
) -> dict[str, Any]:
    container = build(cfg)
    if embedder is not None:
        container.embedder = embedder
    sources = []
    # The files an ingest of the folder reads (supported suffixes, no README), in its order.
    files, _missing = discover([corpus], cfg.ingest.include_readmes)
    for path in files:
        sources.extend(load_file(path, cfg.ingest.max_file_bytes))
    if limit is not None:
        sources = sources[:limit]
    # The same inputs the ingest embeds (title-led chunks); one chunk per passage here.
    texts = [embedding_input(s.title, s.text, cfg.ingest.embed_title) for s in sources]
    # The model and path the ingest embeds with (bfloat16 where the settings ask for it).
    model = container.ingest_model()
    embed = bulk_path(model)
    embed(texts[:8])  # load and warm the model outside both measurements
    model.count_tokens("warm")

    started, cpu_start = time.perf_counter(), _cpu_s()
    embed(texts)
    embed_s = time.perf_counter() - started
    embed_cpu = _cpu_s() - cpu_start

    if cfg.store == "neo4j":
        from graph_store.neo4j.store import Neo4jGraphStore

        assert isinstance(container.store, Neo4jGraphStore)
        # A database of its own, emptied (and opened, whatever schema it held) first.
        container.store.reset()
    container.store.open()
    try:
        container.store.init_schema()
        recorder = GraphRecorder() if digest else None
        if recorder:
            recorder.attach(container.store)
        ingestor = container.ingestor()
        profiler = cProfile.Profile() if profile else None
        sampler = _ThreadSampler()
        started, cpu_start = time.perf_counter(), _cpu_s()
        if profiler:
            profiler.enable()
        with sampler:
            report = ingestor.ingest_documents(sources)
        if profiler:
            profiler.disable()
        ingest_s = time.perf_counter() - started
        ingest_cpu = _cpu_s() - cpu_start
        threads = sampler.spent()
        counts = container.store.counts().as_dict()
        digests = (
            {**recorder.digest(), "store": graph_digest(container.store).sha256[:16]}
            if recorder
            else None
        )
        environment = describe(container)
    finally:
        container.store.close()

    n = len(sources)
    embed_rate = n / embed_s if embed_s else 0.0
    ingest_rate = n / ingest_s if ingest_s else 0.0
    ratio = ingest_rate / embed_rate if embed_rate else 0.0
    result: dict[str, Any] = {
        "corpus": str(corpus),
        "store": cfg.store,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "passages": n,
        "chunks": report.chunks_written,
        "embedding_model": model.model_name,
        "batch_size": cfg.embedding.batch_size,
        "embed_seconds": round(embed_s, 3),
        "embed_passages_per_s": round(embed_rate, 2),
        "ingest_seconds": round(ingest_s, 3),
        "ingest_passages_per_s": round(ingest_rate, 2),
        "ratio": round(ratio, 3),
        "target_ratio": TARGET_RATIO,
        "meets_target": ratio >= TARGET_RATIO,
        "peak_rss_mb": round(_peak_rss_mb(), 1),
        "phases_s": {k: round(v, 3) for k, v in report.phases.items()},
        "budget": _budget(embed_s, ingest_s, report.model_seconds, (embed_cpu, ingest_cpu)),
        "ingest_cpu_ms_per_passage": round(1000 * ingest_cpu / n, 1) if n else 0.0,
        "threads_cpu_s": threads,
        "resolution": {
            "entities": report.entities,
            "new_entities": report.new_entities,
            "merged": report.merged,
            "same_as": report.same_as,
        },
        "counts": counts,
        "environment": environment,
    }
    if digests:
        result["digest"] = digests
    if profiler and profile:
        profiler.dump_stats(str(profile))
        result["profile"] = {"file": str(profile), "top_by_own_time": _top(profiler)}
    return result


def compare(
    corpus: Path,
    stores: list[str],
    *,
    limit: int | None = None,
    profile: Path | None = None,
    digest: bool = False,
) -> dict[str, Any]:
    """``run`` on each store in turn with one loaded model; with two stores, the second's
    ingest rate as a share of the first's (``<second>_vs_<first>``)."""
    if len(stores) == 1:
        return run(corpus, limit=limit, profile=profile, store=stores[0], digest=digest)
    settings = get_settings()
    model = build(settings).embedder
    results = {
        s: run(corpus, settings=settings, limit=limit, embedder=model, store=s, digest=digest)
        for s in stores
    }
    first, *rest = stores
    out: dict[str, Any] = {"stores": results}
    for other in rest:
        base = results[first]["ingest_passages_per_s"]
        rate = results[other]["ingest_passages_per_s"]
        out[f"{other}_vs_{first}"] = round(rate / base, 3) if base else 0.0
    return out


def _budget(
    embed_s: float, ingest_s: float, model: dict[str, float], cpu: tuple[float, float]
) -> dict[str, float]:
    """Where the ingest's time went, against the target's allowance.

    The model keeps every core busy while it runs (2 cores: 64.1 s on one thread, 33.7 s on
    two, for these passages), so other work does not hide behind it: it slows the model's
    calls instead, and ``model_*_s`` (wall seconds the model ran during the ingest) include
    that slowdown. ``model_idle_s`` is the ingest's wall time with the model not running
    (names run on a second copy beside the chunks by default, so the purposes may overlap:
    then it is a lower bound, 0 when they sum past the wall).
    CPU seconds of the whole process compare the costs directly: ``cpu_beyond_embedding``
    is what the ingest spent beyond embedding alone, as a share of embedding alone (the
    target allows 0.25)."""
    chunks = model.get("chunks", 0.0)
    names = model.get("names", 0.0)
    tokens = model.get("count_tokens", 0.0)
    embed_cpu, ingest_cpu = cpu
    return {
        "model_chunks_s": round(chunks, 3),
        "model_names_s": round(names, 3),
        "model_count_tokens_s": round(tokens, 3),
        "model_idle_s": round(max(0.0, ingest_s - chunks - names - tokens), 3),
        "beyond_embedding_s": round(ingest_s - embed_s, 3),
        "allowed_beyond_embedding_s": round(embed_s / TARGET_RATIO - embed_s, 3),
        "embed_cpu_s": round(embed_cpu, 3),
        "ingest_cpu_s": round(ingest_cpu, 3),
        "cpu_beyond_embedding": round((ingest_cpu - embed_cpu) / embed_cpu, 3)
        if embed_cpu
        else 0.0,
    }


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _threads_cpu_s() -> dict[int, float]:
    """CPU seconds of each of this process's OS threads (Linux; empty elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    out: dict[int, float] = {}
    for task in Path("/proc/self/task").glob("*"):
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended between the listing and the read
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return out


class _ThreadSampler:
    """Where the ingest's CPU ran, by OS thread: the main thread's seconds and the busiest
    others' (the chunk feed and the second model copy's callers, the model's worker threads,
    the store's). What one thread spent cannot be spread over two cores, so the busiest
    thread bounds the wall time from below. Threads are read every ``_SAMPLE_S`` seconds, so
    one that ends during the ingest (the chunk feed) is seen up to its last reading."""

    def __init__(self) -> None:
        self._before: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kg-bench-threads", daemon=True)

    def __enter__(self) -> _ThreadSampler:
        self._before = _threads_cpu_s()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._last.update(_threads_cpu_s())

    def _run(self) -> None:
        while not self._stop.wait(_SAMPLE_S):
            self._last.update(_threads_cpu_s())

    def spent(self) -> dict[str, Any]:
        main = threading.get_native_id()
        skip = {main, self._thread.native_id}
        spent = {t: round(cpu - self._before.get(t, 0.0), 2) for t, cpu in self._last.items()}
        others = sorted((v for t, v in spent.items() if t not in skip and v > 0), reverse=True)
        return {"main": spent.get(main, 0.0), "others": others[:_THREADS_SHOWN]}


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _top(profiler: cProfile.Profile) -> list[str]:
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer)
    stats.sort_stats("tottime").print_stats(_PROFILE_ROWS)
    lines = buffer.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("ncalls")), 0)
    return [line.strip() for line in lines[start + 1 :] if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest", description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="first N passages only")
    parser.add_argument("--out", type=Path, default=None, help="write the result JSON here")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile stats file")
    parser.add_argument(
        "--digest", action="store_true", help="digest the graph written (bench/ingest_digest.py)"
    )
    parser.add_argument(
        "--store", default="embedded", help="embedded, neo4j (emptied first), or both: a,b"
    )
    args = parser.parse_args(argv)
    if not args.corpus.exists():
        parser.error(f"no such corpus: {args.corpus}")
    stores = [s.strip() for s in args.store.split(",") if s.strip()]
    if not stores or any(s not in STORES for s in stores):
        parser.error(f"--store takes {', '.join(STORES)} or both, comma-separated")
    result = compare(
        args.corpus, stores, limit=args.limit, profile=args.profile, digest=args.digest
    )
    emit(result, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
