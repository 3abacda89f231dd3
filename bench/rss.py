"""Resident memory of a process that answers questions, the way an API process does (one
container, its searcher and read model), after a run of ``graph`` searches and agent contexts.

    python -m bench.rss --questions FILE [--count 20] [--model auto|memory]
    python -m bench.rss --corpus CORPUS.json ...   (passage-derived questions, as kg bench latency)

``auto`` is what the composition root picks (on Neo4j with GDS: the Neo4j read model, which
keeps no copy of the graph); ``memory`` forces the in-memory read model over the same store, for
comparison. Prints one JSON line: VmRSS after the embedder loaded, and after the questions.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from agents.context import link_entities, neighbours
from bench.datasets import derived_questions, read_corpus, read_question_texts
from kg.container import build
from kg.settings import Settings
from retrieval.read_model import InMemoryReadModel
from retrieval.search import Searcher


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--questions", type=Path)
    source.add_argument("--corpus", type=Path, help="derive the questions from its passages")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--model", choices=["auto", "memory"], default="auto")
    args = parser.parse_args()
    settings = Settings()
    c = build(settings)
    c.store.open()
    c.embedder.embed(["warm up"])
    loaded = rss_mb()
    if args.model == "memory":
        model = InMemoryReadModel.from_settings(c.store, settings.retrieval)
        searcher = Searcher(c.store, c.embedder, settings.retrieval, model)
    else:
        searcher = c.searcher()
    if args.questions is not None:
        questions = read_question_texts(args.questions)[: args.count]
    else:
        questions = derived_questions(read_corpus(args.corpus), args.count)
    started = time.perf_counter()
    # What the model holds per graph version is built before the questions, so that the
    # memory measured includes it whether a store builds it on first use or in the background.
    searcher.model.prepare()
    for q in questions:
        searcher.retrieve(q, 5, "graph")
        vector = c.embedder.embed([q])[0]
        links = link_entities(searcher.model, q, vector, settings.agent, settings.retrieval)
        neighbours(searcher.model, links.entities, settings.agent)
    seconds = time.perf_counter() - started
    counts = c.store.counts()
    print(
        json.dumps(
            {
                "store": settings.store,
                "read_model": type(searcher.model).__name__,
                "documents": counts.documents,
                "chunks": counts.chunks,
                "entities": counts.entities,
                "relations": counts.relations,
                "questions": len(questions),
                "seconds": round(seconds, 1),
                "rss_mb_loaded": round(loaded, 1),
                "rss_mb_after": round(rss_mb(), 1),
            }
        )
    )
    c.store.close()


if __name__ == "__main__":
    main()
