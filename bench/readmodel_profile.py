"""Where a graph-preset question spends its time: every read-model call timed, per question.

    python -m bench.readmodel_profile --corpus C [--questions Q] [--store neo4j] [--count 20]

Opens (or builds) the bench store of ``--store``, wraps its read model in ``TimedReadModel``
and runs the ``graph`` preset on the first ``--count`` questions after ``--warmup`` untimed
ones (without ``--questions``, passage-derived ones, as ``kg bench latency`` asks). Prints
one JSON object: per read-model method its calls and milliseconds per question, and the whole
search's milliseconds per question (the rest is the embedding and Python).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.datasets import derived_questions, read_corpus, read_question_texts
from bench.metrics import mean, percentile_ms
from bench.store import bench_store
from graph_store.read_model import GraphReadModel
from kg.settings import Settings
from retrieval.search import Searcher


class TimedReadModel:
    """Delegates every call to ``inner`` and adds its wall time to ``seconds[method]``."""

    def __init__(self, inner: GraphReadModel) -> None:
        self._inner = inner
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._inner, name)
        if not callable(target):
            return target

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return target(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t0
                self.calls[name] = self.calls.get(name, 0) + 1

        return timed

    def reset(self) -> None:
        self.seconds.clear()
        self.calls.clear()


def profile(
    searcher_of: Callable[[TimedReadModel], Searcher],
    model: GraphReadModel,
    questions: Sequence[str],
    warmup: int,
    k: int = 20,
) -> dict[str, Any]:
    timed = TimedReadModel(model)
    searcher = searcher_of(timed)
    for q in questions[:warmup]:
        searcher.search(q, k, "graph")
    timed.reset()
    asked = list(questions[warmup:])
    whole: list[float] = []
    for q in asked:
        t0 = time.perf_counter()
        searcher.search(q, k, "graph")
        whole.append(time.perf_counter() - t0)
    n = max(1, len(asked))
    return {
        "questions": len(asked),
        "search_ms": {
            "mean": round(1000 * mean(whole), 1),
            "p50": round(percentile_ms(whole, 50), 1),
            "p95": round(percentile_ms(whole, 95), 1),
        },
        "per_method_ms_per_question": {
            m: round(1000 * s / n, 1)
            for m, s in sorted(timed.seconds.items(), key=lambda kv: -kv[1])
        },
        "calls_per_question": {m: round(c / n, 2) for m, c in sorted(timed.calls.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--questions", type=Path, default=None)
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--work-dir", type=Path, default=None)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    settings = Settings()
    wanted = args.warmup + args.count
    if args.questions is not None:
        texts = read_question_texts(args.questions)[:wanted]
    else:
        texts = derived_questions(read_corpus(args.corpus), wanted)
    with bench_store(args.corpus, settings, args.work_dir, store=args.store) as bs:
        c = bs.container

        def searcher_of(model: TimedReadModel) -> Searcher:
            return Searcher(c.store, c.embedder, settings.retrieval, model)

        result = profile(searcher_of, c.read_model(), texts, args.warmup)
        print(json.dumps({"store": bs.location, **result}))


if __name__ == "__main__":
    main()
