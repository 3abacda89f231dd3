"""Per-query time of the in-memory BM25 (retrieval/lexical.py) on a 2Wiki-sized corpus.

Usage: ``python -m bench.lexical_query [--corpus PATH] [--questions PATH] [--repeat N]``.
Indexes ``title + text`` of every passage (as the graph index does) and times ``top(q, 50)``
over the questions of another set, since 2WikiMultihopQA ships its corpus only. Prints
milliseconds per query; a measurement script, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from retrieval.lexical import Bm25Index

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "bench" / "multihop"
CORPUS = SHARED / "2wikimultihopqa" / "2wikimultihopqa_corpus.json"
QUESTIONS = SHARED / "musique" / "musique_train.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    corpus = json.loads(args.corpus.read_text(encoding="utf-8"))
    questions = [q["question"] for q in json.loads(args.questions.read_text(encoding="utf-8"))]
    index = Bm25Index([f"{p['title']}\n{p['text']}" for p in corpus])
    index.top(questions[0], 50, 1.2, 0.75)  # warm-up
    rounds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for q in questions:
            index.top(q, 50, 1.2, 0.75)
        rounds.append((time.perf_counter() - start) / len(questions) * 1000)
    print(
        f"passages={len(corpus)} terms={len(index.vocab)} queries={len(questions)} "
        f"repeat={args.repeat} ms/query median={statistics.median(rounds):.4f} "
        f"min={min(rounds):.4f}"
    )


if __name__ == "__main__":
    main()
