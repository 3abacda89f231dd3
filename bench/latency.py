"""Retrieval latency per question, per Searcher preset, on the embedded bench store.

Every preset answers every question in the same process, after a warm-up that loads the
model, the indexes and any cached graph projection. The preset order is rotated per question
so that no preset always runs on the caches another one just warmed.

Each preset answers each question twice. First as a user's one search does: the reads' vector
cache is emptied before it, so the search embeds its question (``presets``, the headline, and
``by_embedding.embedded``). Then again with the question's vector cached: the preset's own
work (``by_embedding.cached``). Until session 36 one search a question embedded it and the
other presets found it cached, so the headline p50 mixed the two kinds in a proportion set by
the number of presets compared, and fell between them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.datasets import DERIVED_WORDS, derived_questions, read_question_texts
from bench.environment import describe
from bench.metrics import mean, percentile_ms
from bench.multihop import dataset_name
from bench.store import bench_store
from core.errors import ConfigError
from kg.settings import Settings
from retrieval.embedder import Embedder
from retrieval.embedding_cache import CachedEmbedder
from retrieval.search import PRESETS

ProgressHook = Callable[[str, int, int], None]
DEFAULT_PRESETS = ("graph", "dense")
REFERENCE = "dense"


@dataclass(frozen=True)
class LatencyConfig:
    corpus: Path
    presets: tuple[str, ...] = DEFAULT_PRESETS
    questions: int = 100
    questions_file: Path | None = None
    warmup: int = 10
    k: int = 5
    seed: int = 0
    work_dir: Path | None = None
    store: str = "embedded"  # or "neo4j": the database of KG_NEO4J__* (bench/neo4j_store.py)


def run(
    config: LatencyConfig,
    settings: Settings,
    progress: ProgressHook | None = None,
    embedder: Embedder | None = None,
) -> dict[str, Any]:
    presets = tuple(p.removeprefix("kg-") for p in config.presets)
    if not presets or len(set(presets)) != len(presets):
        raise ConfigError("give each preset once")
    unknown = [p for p in presets if p not in PRESETS]
    if unknown:
        raise ConfigError(f"unknown preset {unknown[0]!r}; choose from {', '.join(PRESETS)}")
    if config.questions < 1 or config.warmup < 0:
        raise ConfigError("--questions must be at least 1 and --warmup at least 0")
    wanted = config.questions + config.warmup
    file_texts = None
    if config.questions_file is not None:  # read before the (long) ingest
        file_texts = read_question_texts(config.questions_file)[:wanted]
    with bench_store(
        config.corpus, settings, config.work_dir, embedder, progress, config.store
    ) as bs:
        if file_texts is not None:
            texts = file_texts
            source = f"questions of {config.questions_file}"
        else:
            texts = derived_questions(bs.passages, wanted, config.seed)
            source = (
                f"passage-derived: the first sentence (at most {DERIVED_WORDS} words) of "
                f"passages sampled with seed {config.seed}"
            )
        if len(texts) <= config.warmup:
            raise ConfigError(f"only {len(texts)} questions, not more than the warm-up")
        warm, timed = texts[: config.warmup], texts[config.warmup :]
        searcher = bs.container.searcher()
        # Per-version work (an index, a topology built in the background) done before the
        # timed questions, whatever the warm-up's length.
        searcher.model.prepare()
        for n, question in enumerate(warm):
            for preset in presets:
                searcher.search(question, config.k, preset)
            if progress:
                progress("warm-up", n + 1, len(warm))
        fresh, cached, embedded = _measure(searcher, timed, presets, config.k, progress)
        stats = {p: _stats(fresh[p]) for p in presets}
        split = {p: {"embedded": stats[p], "cached": _stats(cached[p])} for p in presets}
        return {
            "dataset": dataset_name(config.corpus),
            "corpus": {
                "path": str(config.corpus),
                "sha256": bs.corpus_sha256,
                "passages": len(bs.passages),
                "store": bs.location,
                "store_kind": bs.store_kind,
                "store_reused": bs.reused,
                "ingest_s": bs.ingest_seconds,
            },
            "counts": {"store": bs.container.store.counts().as_dict()},
            "questions": {"source": source, "timed": len(timed), "warmup": len(warm)},
            "k": config.k,
            "presets": stats,
            "ratio_to_dense": _ratios(stats),
            "by_embedding": {
                # False: no vector cache in front of the model, so both kinds embedded
                "vector_cache": isinstance(searcher.embedder, CachedEmbedder),
                "embedded_searches_seen": embedded,
                "presets": split,
                "ratio_to_dense": {
                    kind: _ratios({p: split[p][kind] for p in presets})
                    for kind in ("embedded", "cached")
                },
            },
            "environment": describe(bs.container),
        }


def _measure(
    searcher: Any,
    questions: Sequence[str],
    presets: Sequence[str],
    k: int,
    progress: ProgressHook | None,
) -> tuple[dict[str, list[float]], dict[str, list[float]], int]:
    """Each preset's seconds a question as a user's search (the question embedded) and as its
    own work (the same search again, the question's vector cached); and how many of the
    first kind were seen to embed."""
    fresh: dict[str, list[float]] = {p: [] for p in presets}
    cached: dict[str, list[float]] = {p: [] for p in presets}
    cache = searcher.embedder if isinstance(searcher.embedder, CachedEmbedder) else None
    embedded = 0  # first-kind searches seen to embed (missed the emptied cache)
    for n, question in enumerate(questions):
        shift = n % len(presets)
        order = (*presets[shift:], *presets[:shift])
        for preset in order:
            if cache is not None:
                cache.clear()
                before = cache.misses
            fresh[preset].append(_timed(searcher, question, k, preset))
            if cache is not None and cache.misses > before:
                embedded += 1
        for preset in order:
            cached[preset].append(_timed(searcher, question, k, preset))
        if progress:
            progress("timed", n + 1, len(questions))
    return fresh, cached, embedded


def _timed(searcher: Any, question: str, k: int, preset: str) -> float:
    t0 = time.perf_counter()
    searcher.search(question, k, preset)
    return time.perf_counter() - t0


def _stats(seconds: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile_ms(seconds, 50), 2),
        "p95_ms": round(percentile_ms(seconds, 95), 2),
        "mean_ms": round(1000 * mean(seconds), 2),
        "max_ms": round(1000 * max(seconds), 2) if seconds else 0.0,
        "n": len(seconds),
    }


def _ratios(stats: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    ref = stats.get(REFERENCE)
    if not ref or not ref["p50_ms"] or not ref["p95_ms"]:
        return {}
    return {
        p: {
            "p50": round(s["p50_ms"] / ref["p50_ms"], 2),
            "p95": round(s["p95_ms"] / ref["p95_ms"], 2),
        }
        for p, s in stats.items()
    }
