"""Offline answer: the evidence sentences that answer the question, each with its citation.

Used when no LLM is configured (or the LLM failed); the answer says so plainly. The question
is read for its parts and the kind of answer each asks for (``agents.question``): a number, a
date, a person, a place, a list. Each evidence sentence is scored per part by embedding
similarity to the part, by how many of the part's relation words it uses ("directed",
"recruit"), and by whether it states a fact of the asked kind that the question does not
already hold (``agents.answer_facts``); better-ranked evidence wins near-ties. A sentence that
merely shares the question's entities gets none of the fact bonus.

Every part gets its own best sentence, so "how many X and how many Y" quotes both; a part
whose best sentence carries no fact of the asked kind is reported as not found, which the
offline confidence reads. For a list, every item of the enumeration the best sentence belongs
to is quoted ("Priority one ...", "Priority two ..."), taken from the whole document when a
``siblings`` lookup is given. Evidence reached through the graph (STRATEGIC) gets its own lines
with the path that reached it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from agents.answer_facts import carries, coverage, item_head, same_time
from agents.question import Kind, QuestionPart, analyse, part_queries
from extraction.chunking import split_sentences
from retrieval.embedder import Embedder

NO_LLM_NOTE = "No LLM is configured: this answer is extractive, quoted from the cited evidence."


class Passage(Protocol):
    @property
    def chunk_id(self) -> str: ...

    @property
    def doc_title(self) -> str: ...

    @property
    def text(self) -> str: ...


# chunk id -> every chunk of its document, in document order (for whole enumerations).
Siblings = Callable[[str], Sequence[Passage]]


@dataclass(frozen=True)
class Citation:
    chunk_id: str
    document_title: str


@dataclass(frozen=True)
class PartAnswer:
    text: str
    kind: Kind
    found: bool  # the best sentence states a fact of the asked kind about the asked relation
    sentence: str | None
    chunk_id: str | None
    # Share of the part's relation words that sentence uses (1.0 when the part has none).
    support: float = 0.0


@dataclass(frozen=True)
class ExtractiveAnswer:
    answer: str
    sentences: list[tuple[str, str]]  # (sentence, chunk id)
    citations: list[Citation] = field(default_factory=list)
    note: str = NO_LLM_NOTE
    parts: list[PartAnswer] = field(default_factory=list)


@dataclass(frozen=True)
class ExtractiveOptions:
    max_sentences: int = 5
    # Sentences shorter than this are headings or fragments, not statements worth quoting.
    min_words: int = 5
    # Similarity given up per rank step of the evidence: a sentence from the 5th-ranked chunk
    # must be 0.08 closer to the question than one from the top chunk to be chosen first.
    rank_penalty: float = 0.02
    # Score added for the share of the part's relation words a sentence uses, and for stating
    # a fact of the asked kind; in units of cosine similarity (MiniLM).
    relation_weight: float = 0.3
    fact_weight: float = 0.25
    name_weight: float = 0.1
    # Bonus when a question about the future meets a sentence about the future.
    tense_weight: float = 0.1
    # Bonus for sentences of a passage a quoted sentence names (the multi-hop bridge).
    bridge_weight: float = 0.2
    # Items of one enumeration quoted at most, and other sentences quoted beside a list.
    max_list_items: int = 10
    list_context: int = 2


@dataclass(frozen=True)
class _Candidate:
    sentence: str
    passage: Passage
    rank: int
    position: int  # sentence index within the passage, for document order


def extractive_answer(
    question: str,
    evidence: Sequence[Passage],
    embedder: Embedder,
    max_sentences: int = 5,
    *,
    options: ExtractiveOptions | None = None,
    graph_context: Sequence[tuple[Passage, list[str]]] = (),
    note: str = NO_LLM_NOTE,
    siblings: Siblings | None = None,
) -> ExtractiveAnswer:
    """``graph_context``: (passage, path) pairs reached through the graph; each gets its own
    line with its path, and they are kept out of the main sentences so the path is shown."""
    opts = options or ExtractiveOptions(max_sentences=max_sentences)
    parts = analyse(question)
    context_ids = {p.chunk_id for p, _ in graph_context}
    main = [h for h in evidence if h.chunk_id not in context_ids] or list(evidence)
    passages = main + [p for p, _ in graph_context if p not in main]
    candidates = _candidates(passages, opts.min_words)
    if not candidates:
        return ExtractiveAnswer(
            "No evidence was found for this question.",
            [],
            note=note,
            parts=[PartAnswer(p.text, p.kind, False, None, None) for p in parts],
        )
    scores = _scores(question, parts, candidates, embedder, opts)
    overall = scores.max(axis=0)
    main_ids = {h.chunk_id for h in main}
    in_main = [c.passage.chunk_id in main_ids for c in candidates]
    picked = _answer_parts(parts, candidates, scores, in_main, siblings, opts)
    chosen, list_lines = picked.chosen, picked.list_lines
    # Beside a list, a couple of sentences of context; otherwise up to max_sentences.
    room = len(chosen) + opts.list_context if list_lines else opts.max_sentences
    fill = overall + _bridge_bonus(candidates, [s for s, _ in chosen], opts.bridge_weight)
    _fill(chosen, candidates, fill, in_main, room)
    listed = set(list_lines)
    prose = [(s, cid) for s, cid in chosen if f"- {s} [{cid}]" not in listed]
    # The list is the answer when one was asked for: it comes first.
    lines = ["\n".join(list_lines)] if list_lines else []
    if prose:
        lines.append(" ".join(f"{s} [{cid}]" for s, cid in prose))
    titles = {h.chunk_id: h.doc_title for h in passages}
    titles.update({c.passage.chunk_id: c.passage.doc_title for c in picked.list_items})
    lines += _graph_lines(graph_context, candidates, overall, chosen)
    cited = list(dict.fromkeys(cid for _, cid in chosen))
    return ExtractiveAnswer(
        "\n\n".join(lines),
        chosen,
        [Citation(c, titles.get(c, "")) for c in cited],
        note=note,
        parts=picked.parts,
    )


@dataclass
class _Picked:
    """What the question's parts chose: (sentence, chunk id) pairs in order, the lines of an
    asked-for list and its items, and each part's answer."""

    chosen: list[tuple[str, str]] = field(default_factory=list)
    list_lines: list[str] = field(default_factory=list)
    list_items: list[_Candidate] = field(default_factory=list)
    parts: list[PartAnswer] = field(default_factory=list)


def _answer_parts(
    parts: Sequence[QuestionPart],
    candidates: list[_Candidate],
    scores: np.ndarray,
    in_main: list[bool],
    siblings: Siblings | None,
    opts: ExtractiveOptions,
) -> _Picked:
    out = _Picked()
    chosen = out.chosen
    for p_index, part in enumerate(parts):
        order = [i for i in np.argsort(-scores[p_index]) if in_main[i]]
        if not order:
            out.parts.append(PartAnswer(part.text, part.kind, False, None, None))
            continue
        # The part's answer is the best sentence that states a fact of the asked kind about
        # the asked relation; only when none does, the best sentence at all (not found).
        answering = [i for i in order if _found(part, candidates[i])]
        best = candidates[answering[0] if answering else order[0]]
        found = bool(answering)
        if part.kind == "LIST":
            items = _enumeration(order[:3], candidates, siblings, opts)
            if items:
                best, found = items[0], True
                out.list_items += items
                for item in items:
                    pair = (item.sentence, item.passage.chunk_id)
                    if pair not in chosen:
                        chosen.append(pair)
                        out.list_lines.append(f"- {item.sentence} [{item.passage.chunk_id}]")
        if (best.sentence, best.passage.chunk_id) not in chosen:
            chosen.append((best.sentence, best.passage.chunk_id))
        rel, _ = coverage(part, best.sentence, best.passage.doc_title)
        out.parts.append(
            PartAnswer(
                part.text,
                part.kind,
                found,
                best.sentence,
                best.passage.chunk_id,
                rel if part.relation_words else 1.0,
            )
        )
    return out


def _fill(
    chosen: list[tuple[str, str]],
    candidates: list[_Candidate],
    fill: np.ndarray,
    in_main: list[bool],
    room: int,
) -> None:
    """Add the best remaining sentences up to ``room``, one per document first: a multi-hop
    answer spans passages, and five sentences of the passage that best matches the
    question's words seldom hold it."""
    docs = {c.passage.doc_title for c in candidates if (c.sentence, c.passage.chunk_id) in chosen}
    for per_doc in (True, False):
        for i in np.argsort(-fill):
            if len(chosen) >= room:
                break
            c = candidates[i]
            pair = (c.sentence, c.passage.chunk_id)
            if not in_main[i] or pair in chosen or any(c.sentence == s for s, _ in chosen):
                continue
            if per_doc and c.passage.doc_title in docs:
                continue
            docs.add(c.passage.doc_title)
            chosen.append(pair)


def _graph_lines(
    graph_context: Sequence[tuple[Passage, list[str]]],
    candidates: list[_Candidate],
    overall: np.ndarray,
    chosen: list[tuple[str, str]],
) -> list[str]:
    """One line per passage reached through the graph (not already quoted), with its path;
    each quoted sentence joins ``chosen``."""
    lines: list[str] = []
    used = {cid for _, cid in chosen}
    for passage, path in graph_context:
        if passage.chunk_id in used:
            continue
        own = [i for i, c in enumerate(candidates) if c.passage.chunk_id == passage.chunk_id]
        if not own:
            continue
        best_sentence = candidates[max(own, key=lambda i: overall[i])].sentence
        used.add(passage.chunk_id)
        chosen.append((best_sentence, passage.chunk_id))
        via = f" (through the graph: {' → '.join(path)})" if path else ""
        lines.append(f"Related{via}: {best_sentence} [{passage.chunk_id}]")
    return lines


def _candidates(passages: Sequence[Passage], min_words: int) -> list[_Candidate]:
    out: list[_Candidate] = []
    for rank, hit in enumerate(passages):
        for position, sentence in enumerate(split_sentences(hit.text)):
            if len(sentence.split()) >= min_words:
                out.append(_Candidate(sentence, hit, rank, position))
    return out


def _scores(
    question: str,
    parts: list[QuestionPart],
    candidates: list[_Candidate],
    embedder: Embedder,
    opts: ExtractiveOptions,
) -> np.ndarray:
    """Score of every candidate for every part: parts x candidates."""
    # The title leads each sentence: a passage's sentences say "he" or "the film" for the
    # subject its title names.
    texts = [f"{c.passage.doc_title}. {c.sentence}" for c in candidates]
    queries = [question] if len(parts) == 1 else part_queries(question)
    vectors = np.asarray(embedder.embed([*queries, *texts]))
    sims = vectors[len(queries) :] @ vectors[: len(queries)].T  # candidates x parts
    out = np.zeros((len(parts), len(candidates)))
    for p_index, part in enumerate(parts):
        for i, c in enumerate(candidates):
            rel, name = coverage(part, c.sentence, c.passage.doc_title)
            fact = carries(part.kind, c.sentence, question)
            out[p_index, i] = (
                float(sims[i, p_index])
                + opts.relation_weight * rel
                + opts.name_weight * name
                + opts.fact_weight * float(fact)
                + opts.tense_weight * float(same_time(part, c.sentence))
                - opts.rank_penalty * c.rank
            )
    return out


def _bridge_bonus(candidates: list[_Candidate], quoted: list[str], weight: float) -> np.ndarray:
    """Sentences of a passage whose subject (its title) a quoted sentence names: the second
    hop of a multi-hop question ("... published by Two Dollar Radio" -> "Two Dollar Radio is
    ... based in Columbus")."""
    text = " ".join(quoted).lower()
    bonus = np.zeros(len(candidates))
    for i, c in enumerate(candidates):
        title = re.sub(r"\s*\(.*\)$", "", c.passage.doc_title).strip().lower()
        if len(title) >= 3 and title in text and c.sentence not in quoted:
            bonus[i] = weight
    return bonus


def _found(part: QuestionPart, best: _Candidate) -> bool:
    """The asked-for fact is there: a fact of the asked kind, in a sentence using the relation
    the part asks about (when the part names one)."""
    if part.kind == "YESNO":
        return False  # quoting evidence gives no verdict; the reader must compare
    if not carries(part.kind, best.sentence, part.text):
        return False
    rel, _ = coverage(part, best.sentence, best.passage.doc_title)
    return rel > 0 or not part.relation_words


def _enumeration(
    top: Sequence[int],
    candidates: list[_Candidate],
    siblings: Siblings | None,
    opts: ExtractiveOptions,
) -> list[_Candidate]:
    """Every item of the first enumeration among the best sentences, in document order."""
    for i in top:
        head = item_head(candidates[i].sentence)
        if head is None:
            continue
        anchor = candidates[i].passage
        pool = list(siblings(anchor.chunk_id)) if siblings is not None else []
        if not pool:
            pool = [c.passage for c in candidates if c.passage.doc_title == anchor.doc_title]
        items: list[_Candidate] = []
        seen: set[str] = set()
        for rank, passage in enumerate(pool):
            for position, sentence in enumerate(split_sentences(passage.text)):
                if item_head(sentence) == head and sentence not in seen:
                    seen.add(sentence)
                    items.append(_Candidate(sentence, passage, rank, position))
        if len(items) >= 2:
            return items[: opts.max_list_items]
    return []
