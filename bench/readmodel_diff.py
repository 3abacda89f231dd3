"""Which read-model call makes the Neo4j graph preset rank differently from the in-memory one.

    python -m bench.readmodel_diff --corpus C --questions Q [--store neo4j] [--count 100]

Opens the bench store of ``--store`` and runs the ``graph`` preset twice per question: once on
the store's own read model and once on the in-memory read model over the same store (the
projection the graph is read into, as the embedded store ranks). For the questions whose top 5
differ, it reruns the preset with one read-model call at a time answered by the store's model
and every other by the in-memory one: a call whose swap alone moves a question's top 5 is a
cause of that question's difference. Prints one JSON object: recall sums (R@2, R@5) over the
differing questions for both models and each swap, and per swap how many of them it moves.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.datasets import Question, read_corpus, read_questions
from bench.metrics import recall_at_k
from bench.multihop import KS, searcher_rank
from bench.store import BenchStore, bench_store
from graph_store.read_model import GraphReadModel
from kg.settings import Settings
from retrieval.read_model import InMemoryReadModel
from retrieval.search import Searcher

# The port's calls that the graph preset makes (graph_search and linking).
CALLS = (
    "dense_candidates",
    "lexical_candidates",
    "alias_matches",
    "nearest_entities",
    "fulltext_entities",
    "entity_names",
    "personalized_pagerank",
    "authority_percentiles",
    "relation_paths",
    "chunk_entities",
    "chunk_details",
    "chunk_entity_similarities",
    "subject_chunks",
    "entity_chunks",
    "entity_similarities",
)
TOP = 5


class MixedReadModel:
    """``base`` answers every call except those named in ``swapped``, which ``other`` answers."""

    def __init__(self, base: GraphReadModel, other: GraphReadModel, swapped: Sequence[str]) -> None:
        self._base, self._other, self._swapped = base, other, frozenset(swapped)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._other if name in self._swapped else self._base, name)


def _ranking(bs: BenchStore, searcher: Searcher, question: str) -> list[int]:
    """The passages the graph preset ranks, as ``kg bench multihop`` scores them."""
    return searcher_rank(bs, searcher, "graph")(question)[0]


def _sums(rankings: Sequence[list[int]], questions: Sequence[Question]) -> dict[str, float]:
    pairs = list(zip(rankings, questions, strict=True))
    return {f"R@{k}": round(sum(recall_at_k(r, q.gold, k) for r, q in pairs), 3) for k in KS}


def diff(
    bs: BenchStore, settings: Settings, questions: Sequence[Question], calls: Sequence[str]
) -> dict[str, Any]:
    c = bs.container
    store_model = c.read_model()
    memory = InMemoryReadModel(c.store)

    def searcher(model: Any) -> Searcher:
        return Searcher(c.store, c.embedder, settings.retrieval, model)

    own, mem = searcher(store_model), searcher(memory)
    by_store = [_ranking(bs, own, q.text) for q in questions]
    by_memory = [_ranking(bs, mem, q.text) for q in questions]
    differ = [i for i in range(len(questions)) if by_store[i][:TOP] != by_memory[i][:TOP]]
    asked = [questions[i] for i in differ]
    out: dict[str, Any] = {
        "questions": len(questions),
        "differing": len(differ),
        "store_model": type(store_model).__name__,
        "all questions": {
            "store": _sums(by_store, questions),
            "in memory": _sums(by_memory, questions),
        },
        "differing questions": {
            "store": _sums([by_store[i] for i in differ], asked),
            "in memory": _sums([by_memory[i] for i in differ], asked),
        },
        "swaps": {},
    }
    for call in calls:
        mixed = searcher(MixedReadModel(memory, store_model, [call]))
        ranked = [_ranking(bs, mixed, q.text) for q in asked]
        pairs = zip(differ, ranked, strict=True)
        moved = [questions[i].id for i, r in pairs if r[:TOP] != by_memory[i][:TOP]]
        out["swaps"][call] = {**_sums(ranked, asked), "moves": len(moved), "moved": moved}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--questions", type=Path, required=True)
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="neo4j")
    parser.add_argument("--work-dir", type=Path, default=None)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--calls", default=",".join(CALLS), help="comma-separated port calls")
    args = parser.parse_args()
    calls = [c for c in args.calls.split(",") if c]
    unknown = sorted(set(calls) - set(CALLS))
    if unknown:
        parser.error(f"unknown read-model calls: {', '.join(unknown)}")
    settings = Settings()
    questions = read_questions(args.questions, read_corpus(args.corpus))
    questions = [q for q in questions if q.gold][: args.count]
    with bench_store(args.corpus, settings, args.work_dir, store=args.store) as bs:
        print(json.dumps({"store": bs.location, **diff(bs, settings, questions, calls)}))


if __name__ == "__main__":
    main()
