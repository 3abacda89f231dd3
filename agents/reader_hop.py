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

from agents.loop import Gathered, RunContext, retrieve_more
from agents.models import SubTask
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
        about = "the question with its described subject named by the evidence"
        retrieve_more(run, g, SubTask(id=f"hop{n}", description=about, query=query, origin="hop"))
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
