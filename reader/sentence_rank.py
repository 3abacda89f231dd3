"""How well each evidence sentence answers each part of a question: the offline answer's ranking.

A sentence's score for a part is its embedding similarity to the part (the passage title
leading the sentence, as "he" or "the film" often stand for it), plus

- the share of the part's relation words it uses ("directed", "founded", "based"), each
  word weighted by how rare it is among the evidence sentences: a word every sentence shares
  tells them apart no better than none;
- a little for the part's names it (or its title) holds;
- a fact of the asked kind the question does not hold (``reader.answer_facts``), and a
  candidate of the asked type by NER (``reader.answer_types``): a person for "who", a place
  for "where" (not for numbers, which the rules see); a sentence that only repeats the
  question's entities gets neither;
- a question about the future meeting a sentence about the future;
- less for evidence retrieval ranked lower.

Multi-hop questions are answered by a chain of sentences: the one about the question's subject
names the bridge ("... debut album was released by Lantern Press"), and a sentence about the
bridge holds the answer ("Lantern Press is ... based in Millbrook, Oregon"). ``bridge_bonus``
raises the sentences of other documents about what the anchor sentences (the best ones so far)
name that the question does not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from extraction.chunking import split_sentences
from reader.answer_facts import carries, coverage, same_time, sentence_lemmas
from reader.answer_types import Entity, Ner, bridges, candidates
from reader.question import QuestionPart, part_queries
from reader.settings import ReaderSettings
from retrieval.embedder import Embedder


class Passage(Protocol):
    @property
    def chunk_id(self) -> str: ...

    @property
    def doc_title(self) -> str: ...

    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class Candidate:
    sentence: str
    passage: Passage
    rank: int
    position: int  # sentence index within the passage, for document order
    # Named entities by NER; None when the sentence was not read by a trained pipeline.
    entities: tuple[Entity, ...] | None = field(default=None, compare=False)


def sentence_candidates(
    passages: Sequence[Passage], min_words: int, ner: Ner | None
) -> list[Candidate]:
    """Every sentence of ``min_words`` words or more, in evidence order, read by ``ner``."""
    found = [
        (sentence, hit, rank, position)
        for rank, hit in enumerate(passages)
        for position, sentence in enumerate(split_sentences(hit.text))
        if len(sentence.split()) >= min_words
    ]
    if ner is None or not found:
        return [Candidate(*f) for f in found]
    entities = ner([f[0] for f in found])
    return [Candidate(*f, entities=tuple(e)) for f, e in zip(found, entities, strict=True)]


def scores(
    question: str,
    parts: Sequence[QuestionPart],
    cands: Sequence[Candidate],
    embedder: Embedder,
    w: ReaderSettings,
) -> np.ndarray:
    """Score of every candidate for every part: parts x candidates. The similarity plus
    ``w``'s bonuses, in units of cosine similarity (MiniLM); the relation words of the clause
    that asks (``QuestionPart.focus_words``) count on top of all relation words: in "... a
    show that first aired on which channel", a sentence about airing answers, one about
    the show's host only leads there."""
    texts = [f"{c.passage.doc_title}. {c.sentence}" for c in cands]
    queries = [question] if len(parts) == 1 else part_queries(question)
    vectors = np.asarray(embedder.embed([*queries, *texts]))
    sims = vectors[len(queries) :] @ vectors[: len(queries)].T  # candidates x parts
    own = [sentence_lemmas(c.sentence) for c in cands]
    out = np.zeros((len(parts), len(cands)))
    for p_index, part in enumerate(parts):
        rarity = rarity_of(part.relation_words, own)
        focus = rarity_of(part.focus_words, own)
        for i, c in enumerate(cands):
            _, name = coverage(part, c.sentence, c.passage.doc_title)
            out[p_index, i] = (
                float(sims[i, p_index])
                + w.relation_weight * weighted_share(rarity, own[i])
                + w.focus_weight * weighted_share(focus, own[i])
                + w.name_weight * name
                + w.fact_weight * float(carries(part.kind, c.sentence, question))
                + w.type_weight * typed(part, c, question)
                + w.tense_weight * float(same_time(part, c.sentence))
                - w.rank_penalty * c.rank
            )
    return out


def typed(part: QuestionPart, c: Candidate, question: str) -> float:
    """1 when NER finds a candidate of the asked type. Not for numbers: the number rules
    already see them, and a count can be a list of names ("depots in A, B and C")."""
    if part.kind == "NUMBER":
        return 0.0
    return float(bool(candidates(part.kind, c.entities or (), question)))


def rarity_of(relation: Sequence[str], sentences: Sequence[set[str]]) -> dict[str, float]:
    """Inverse document frequency of each relation word over the evidence sentences."""
    n = len(sentences)
    return {r: math.log((n + 1) / (1 + sum(r in s for s in sentences))) for r in relation}


def weighted_share(rarity: dict[str, float], sentence: set[str]) -> float:
    total = sum(rarity.values())
    if total <= 0:
        return 0.0
    return sum(v for r, v in rarity.items() if r in sentence) / total


def anchors(
    cands: Sequence[Candidate], ranking: np.ndarray, chosen: Sequence[str], docs: int
) -> list[int]:
    """The chosen sentences and the best ones of other documents, ``docs`` documents in all:
    the first hop of the chain."""
    picked = [i for i, c in enumerate(cands) if c.sentence in chosen]
    titles = {cands[i].passage.doc_title for i in picked}
    for i in np.argsort(-ranking):
        if len(titles) >= docs:
            break
        title = cands[int(i)].passage.doc_title
        if title not in titles:
            titles.add(title)
            picked.append(int(i))
    return picked


def bridge_bonus(
    cands: Sequence[Candidate], anchor: Sequence[int], question: str, weight: float
) -> np.ndarray:
    """``weight`` for each sentence of another document whose title an anchor sentence names,
    or which names what an anchor sentence adds to the question (its bridge entities)."""
    text = " ".join(cands[i].sentence for i in anchor).lower()
    terms = {b.lower() for i in anchor for b in bridges(cands[i].entities or (), question)}
    own_docs = {cands[i].passage.doc_title for i in anchor}
    bonus = np.zeros(len(cands))
    for i, c in enumerate(cands):
        if c.passage.doc_title in own_docs:
            continue
        title = re.sub(r"\s*\(.*\)$", "", c.passage.doc_title).strip().lower()
        low = c.sentence.lower()
        if (len(title) >= 3 and title in text) or any(t in low or t == title for t in terms):
            bonus[i] = weight
    return bonus
