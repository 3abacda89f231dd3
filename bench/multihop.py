"""The multi-hop retrieval benchmark: Recall@2 and Recall@5 over passages, every ranker in one run.

Rankers: ``bm25`` and ``dense`` (the baselines in ``bench.baselines``), ``agent``
(``agents.bench.evidence_ranking``) and any other name as a kg-first Searcher preset (``kg-``
prefix optional; ``kg-dense`` reaches the store's own dense preset, since ``dense`` names the
exact-cosine baseline). Each ranker's chunks are mapped to their corpus passage and
de-duplicated, keeping the first occurrence, so a passage split into chunks counts once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from bench.baselines import Bm25Ranker, DenseRanker, passage_vectors
from bench.datasets import Question, read_corpus, read_questions
from bench.environment import describe
from bench.metrics import mean, recall_at_k
from bench.store import BenchStore, bench_store
from core.errors import ConfigError
from kg.settings import Settings
from retrieval.embedder import Embedder
from retrieval.search import PRESETS, Searcher

ProgressHook = Callable[[str, int, int], None]
BASELINES = ("bm25", "dense")
AGENT = "agent"
DEFAULT_PRESETS = ("bm25", "dense", "hybrid", "graph", "agent")
KS = (2, 5)
DEPTH = 10  # passages kept per question and ranker in the result
CHUNK_K = 2 * DEPTH  # chunks asked for, so that DEPTH distinct passages usually remain

# (question) -> (passage indices best first, agent iterations or None)
Rank = Callable[[str], tuple[list[int], int | None]]


@dataclass(frozen=True)
class MultihopConfig:
    corpus: Path
    questions: Path
    presets: tuple[str, ...] = DEFAULT_PRESETS
    limit: int | None = None
    name: str = ""
    work_dir: Path | None = None
    store: str = "embedded"  # or "neo4j": the database of KG_NEO4J__* (bench/neo4j_store.py)


def store_preset(name: str) -> str | None:
    """The Searcher preset a ranker name stands for; None for baselines and the agent."""
    if name in BASELINES or name == AGENT:
        return None
    return name.removeprefix("kg-")


def check_presets(presets: Sequence[str]) -> None:
    """Reject unusable names before the (long) ingest rather than after it."""
    if not presets:
        raise ConfigError("no presets to run")
    dupes = {p for p in presets if presets.count(p) > 1}
    if dupes:
        raise ConfigError(f"preset listed twice: {', '.join(sorted(dupes))}")
    for name in presets:
        preset = store_preset(name)
        if preset is not None and preset not in PRESETS:
            raise ConfigError(
                f"unknown preset {preset!r}; choose from bm25, dense, agent, {', '.join(PRESETS)}"
            )
    if AGENT in presets:
        _agent_ranking()


def _agent_ranking() -> Callable[..., tuple[list[str], int]]:
    try:
        module = import_module("agents.bench")
        fn: Callable[..., tuple[list[str], int]] = module.evidence_ranking
    except (ImportError, AttributeError) as exc:
        raise ConfigError(
            f"the agent preset needs agents.bench.evidence_ranking, which is unavailable: {exc}"
        ) from exc
    return fn


def build_rankers(
    bs: BenchStore, presets: Sequence[str], progress: ProgressHook | None = None
) -> dict[str, Rank]:
    rankers: dict[str, Rank] = {}
    searcher = bs.container.searcher()
    for name in presets:
        if name == "bm25":
            rankers[name] = _baseline_rank(Bm25Ranker(bs.passages))
        elif name == "dense":
            vectors = passage_vectors(bs.passages, bs.container.embedder, bs.directory, progress)
            rankers[name] = _baseline_rank(DenseRanker(vectors, bs.container.embedder))
        elif name == AGENT:
            rankers[name] = _agent_rank(bs, _agent_ranking())
        else:
            rankers[name] = searcher_rank(bs, searcher, store_preset(name) or name)
    return rankers


def _baseline_rank(ranker: Bm25Ranker | DenseRanker) -> Rank:
    def rank(question: str) -> tuple[list[int], int | None]:
        return ranker.rank(question, DEPTH), None

    return rank


def searcher_rank(bs: BenchStore, searcher: Searcher, preset: str) -> Rank:
    def rank(question: str) -> tuple[list[int], int | None]:
        results = searcher.search(question, CHUNK_K, preset)
        return bs.passages_of_docs([r.doc_id for r in results])[:DEPTH], None

    return rank


def _agent_rank(bs: BenchStore, fn: Callable[..., tuple[list[str], int]]) -> Rank:
    def rank(question: str) -> tuple[list[int], int | None]:
        # k is the agent's retrieval depth per sub-query; it returns its whole evidence pool.
        chunk_ids, iterations = fn(bs.container, question, DEPTH)
        return bs.passages_of_chunks(chunk_ids)[:DEPTH], int(iterations)

    return rank


def run(
    config: MultihopConfig,
    settings: Settings,
    progress: ProgressHook | None = None,
    embedder: Embedder | None = None,
) -> dict[str, Any]:
    """Build or reuse the store, rank every question with every preset, return RESULT."""
    check_presets(config.presets)
    # Both files are checked before the (long) ingest.
    questions = read_questions(config.questions, read_corpus(config.corpus))
    if config.limit is not None:
        questions = questions[: config.limit]
    without_gold = sum(1 for q in questions if not q.gold)
    questions = [q for q in questions if q.gold]
    if not questions:
        raise ConfigError(f"{config.questions}: no question has gold passages")
    with bench_store(
        config.corpus, settings, config.work_dir, embedder, progress, config.store
    ) as bs:
        started = time.perf_counter()
        rankers = build_rankers(bs, config.presets, progress)
        setup_s = time.perf_counter() - started
        rows, spent, iterations = _rank_all(bs, questions, rankers, progress)
        return {
            "dataset": config.name or dataset_name(config.corpus),
            "summary": _summary(rows, config.presets, iterations),
            "questions": rows,
            "corpus": {
                "path": str(config.corpus),
                "sha256": bs.corpus_sha256,
                "passages": len(bs.passages),
                "store": bs.location,
                "store_kind": bs.store_kind,
                "store_reused": bs.reused,
                "ingest_s": bs.ingest_seconds,
            },
            "counts": {
                "questions": len(questions),
                "gold_passages": sum(len(q.gold) for q in questions),
                "skipped_without_gold": without_gold,
                "store": bs.container.store.counts().as_dict(),
            },
            "timings": {
                "ingest_s": bs.ingest_seconds,
                "ranker_setup_s": round(setup_s, 2),
                "per_preset": {
                    p: {
                        "total_s": round(sum(spent[p]), 3),
                        "mean_ms": round(1000 * mean(spent[p]), 2),
                    }
                    for p in config.presets
                },
            },
            "settings": {"ks": list(KS), "depth": DEPTH, "chunk_k": CHUNK_K},
            "environment": describe(bs.container),
        }


def dataset_name(corpus: Path) -> str:
    parent = corpus.resolve().parent.name
    return parent or corpus.stem


def _rank_all(
    bs: BenchStore,
    questions: Sequence[Question],
    rankers: dict[str, Rank],
    progress: ProgressHook | None,
) -> tuple[list[dict[str, Any]], dict[str, list[float]], dict[str, list[int]]]:
    rows: list[dict[str, Any]] = []
    spent: dict[str, list[float]] = {p: [] for p in rankers}
    iterations: dict[str, list[int]] = {p: [] for p in rankers}
    titles = [p.title for p in bs.passages]
    for n, q in enumerate(questions):
        ranked: dict[str, list[int]] = {}
        for preset, rank in rankers.items():
            t0 = time.perf_counter()
            ranked[preset], its = rank(q.text)
            spent[preset].append(time.perf_counter() - t0)
            if its is not None:
                iterations[preset].append(its)
        rows.append(
            {
                "id": q.id,
                "question": q.text,
                "gold": list(q.gold_titles),
                "gold_ids": [sorted(g) for g in q.gold],
                "ranked": {p: [titles[i] for i in ids] for p, ids in ranked.items()},
                "ranked_ids": ranked,
                "recall": {
                    p: {f"R@{k}": recall_at_k(ids, q.gold, k) for k in KS}
                    for p, ids in ranked.items()
                },
            }
        )
        if progress:
            progress("questions", n + 1, len(questions))
    return rows, spent, iterations


def _summary(
    rows: Sequence[dict[str, Any]], presets: Sequence[str], iterations: dict[str, list[int]]
) -> dict[str, dict[str, float]]:
    summary: dict[str, dict[str, float]] = {}
    for p in presets:
        entry = {f"R@{k}": round(mean([r["recall"][p][f"R@{k}"] for r in rows]), 4) for k in KS}
        if iterations.get(p):
            entry["iterations"] = round(mean([float(i) for i in iterations[p]]), 2)
        summary[p] = entry
    return summary
