"""The reader's hop: retrieve for the question the evidence lets the reader rewrite.

"In what county is the town where Ann Lee was born?" describes its subject. Once the loop has
gathered evidence, the reader unwinds the description (``reader.compose.walk``): Ann Lee's page says
she was born in Elmford, so the question becomes "In what county is Elmford?". When no gathered
sentence about Elmford answers that, Elmford's own page is what is missing, and its words
share little with the question as asked; the rewritten question is retrieved (at most
``reader_hop_queries`` of them, one per name the step found) and joins the pool at
``hop_weight``. The answerer then reads the pool as usual, and unwinds the same description
to the sentences the hop brought.
"""

from __future__ import annotations

from agents.loop import Gathered, RunContext
from agents.models import SubTask
from core.errors import KgError
from reader.answer_types import spacy_ner
from reader.compose import descriptions, walk
from reader.extractive import one_part_reader
from reader.sentence_rank import sentence_candidates


def reader_hop(run: RunContext, g: Gathered) -> list[str]:
    """Retrieve the rewritten questions the gathered evidence cannot answer; returns them."""
    cfg = run.cfg
    if cfg.reader_hop_queries <= 0 or not descriptions(run.question):
        return []  # the parse alone says there is nothing to unwind
    asked = _unanswered(run, g)[: cfg.reader_hop_queries]
    for n, query in enumerate(asked):
        _retrieve(run, g, f"hop{n}", query)
    return list(asked)


def _unanswered(run: RunContext, g: Gathered) -> tuple[str, ...]:
    """What the reader cannot answer from the pool's best evidence (``reader.compose.walk``)."""
    cfg = run.cfg
    opts = cfg.reader
    items = g.pool.bundle().items[: cfg.max_evidence]
    cands = sentence_candidates(items, opts.min_words, spacy_ner(cfg.answer_spacy_model))
    if not cands:
        return ()
    embedder = run.container.embedder
    read = one_part_reader(cands, embedder, opts)
    asked = walk(run.question, cands, [True] * len(cands), embedder, opts, read).unanswered
    return tuple(dict.fromkeys(asked))


def _retrieve(run: RunContext, g: Gathered, task_id: str, query: str) -> None:
    task = SubTask(
        id=task_id,
        description="the question with its described subject named by the evidence",
        query=query,
        origin="hop",
    )
    try:
        found = g.retrieve(task, run.per_query, run.cfg.preset or None)
    except KgError as exc:
        if g.rounds:
            g.rounds[-1].failed.append(f"{query}: {exc}")
        run.audit.write("retrieval_failed", subtask=task.id, error=str(exc))
        return
    new = g.pool.add(task, g.iterations, found.results)
    g.tasks.append(task)
    run.audit.write(
        "retrieval",
        iteration=g.iterations,
        subtask=task.id,
        origin=task.origin,
        query=query,
        preset=found.preset,
        k=run.per_query,
        results=[{"chunk_id": r.chunk_id, "score": r.score} for r in found.results],
    )
    hits, fresh = len(found.results), len(new)
    run.emit("retrieval", {"subtask": task.id, "query": query, "hits": hits, "new": fresh})
