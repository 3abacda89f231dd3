"""Offline answer: the evidence sentences that answer the question, each with its citation.

Used when no LLM is configured (or the LLM failed); the answer says so plainly. The question
is read for its parts and the kind of answer each asks for (``reader.question``): a number, a
date, a person, a place, a list. Each evidence sentence is scored per part by embedding
similarity to the part, by how many of the part's relation words it uses ("directed",
"recruit"), and by whether it states a fact of the asked kind that the question does not
already hold (``reader.answer_facts``); better-ranked evidence wins near-ties. A sentence that
merely shares the question's entities gets none of the fact bonus.

Every part gets its own best sentence, so "how many X and how many Y" quotes both; a part
whose best sentence carries no fact of the asked kind is reported as not found, which the
offline confidence reads. For a list, every item of the enumeration the best sentence belongs
to is quoted ("Step one ...", "Step two ..."), taken from the whole document when a
``siblings`` lookup is given. Evidence reached through the graph (STRATEGIC) gets its own lines
with the path that reached it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from extraction.chunking import split_sentences
from reader.answer_facts import carries, coverage, item_head
from reader.answer_types import Ner, asked_figure, short_answer, the_asked
from reader.answer_types import candidates as typed_candidates
from reader.bridged import bridged
from reader.chain import second_hop
from reader.choice import Choice, choose
from reader.kinship import kin
from reader.question import Kind, QuestionPart, analyse
from reader.quote import graph_lines, with_subject
from reader.roles import cast_sentence, full_name
from reader.sentence_rank import (
    Candidate,
    Passage,
    anchors,
    bridge_bonus,
    scores,
    sentence_candidates,
)
from reader.settings import ReaderSettings
from reader.verdict import Verdict, verdict
from retrieval.embedder import Embedder

NO_LLM_NOTE = "No LLM is configured: this answer is extractive, quoted from the cited evidence."


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
    # The short answer: the candidate of the asked type (NER) in that sentence, when one is,
    # or a yes/no verdict; and the chunks it was read from.
    phrase: str | None = None
    read_from: tuple[str, ...] = ()
    # The answering sentence is the part's best-ranked sentence of all (not one further down
    # that merely holds a fact of the asked kind).
    top: bool = False
    # Share of the part's name words that the evidence holds anywhere (1.0 when the part
    # names nothing): a name no passage holds is a subject the evidence is not about.
    named: float = 0.0
    # The short answer fills the role the part asks about, by the parse ("who wrote" ->
    # the one who writes): a chain's second hop does not replace it.
    cast: bool = False

    @property
    def cites(self) -> str:
        ids = self.read_from or ((self.chunk_id,) if self.chunk_id else ())
        return " ".join(f"[{c}]" for c in ids)


@dataclass(frozen=True)
class Reading:
    """One reading of a question over its evidence, computed once and shared by the answerers
    and the confidence step: each part's answer (``parts``: its kind, answering sentence,
    short answer, support), the extractive answer written from them, and every evidence
    sentence (``candidates``) with its ``ranking`` (best part score plus the bridge bonus)."""

    answer: str
    sentences: list[tuple[str, str]]  # (sentence, chunk id)
    citations: list[Citation] = field(default_factory=list)
    note: str = NO_LLM_NOTE
    parts: list[PartAnswer] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    ranking: tuple[float, ...] = ()

    def top(self, keep: int) -> list[Candidate]:
        """The ``keep`` best-ranked sentences, best first (what the LLM reader is shown)."""
        order = sorted(range(len(self.ranking)), key=lambda i: -self.ranking[i])
        return [self.candidates[i] for i in order[: max(keep, 0)]]


def extractive_answer(
    question: str,
    evidence: Sequence[Passage],
    embedder: Embedder,
    max_sentences: int = 5,
    *,
    options: ReaderSettings | None = None,
    graph_context: Sequence[tuple[Passage, list[str]]] = (),
    note: str = NO_LLM_NOTE,
    siblings: Siblings | None = None,
    ner: Ner | None = None,
    about: Collection[str] = (),
) -> Reading:
    """``graph_context``: (passage, path) pairs reached through the graph; each gets its own
    line with its path, and they are kept out of the main sentences so the path is shown.
    ``ner``: named entities per sentence (``reader.answer_types.spacy_ner``), for candidates
    of the asked type; without it only the capitalised-span rules apply. ``about``: ids of
    the passages that mention an entity the question names; when given, the sentences
    quoted beside a list come from them (passages reached through the graph have their own
    lines)."""
    opts = options or ReaderSettings(max_sentences=max_sentences)
    parts = analyse(question)
    context_ids = {p.chunk_id for p, _ in graph_context}
    main = [h for h in evidence if h.chunk_id not in context_ids] or list(evidence)
    passages = main + [p for p, _ in graph_context if p not in main]
    cands = sentence_candidates(passages, opts.min_words, ner)
    if not cands:
        return Reading(
            "No evidence was found for this question.",
            [],
            note=note,
            parts=[PartAnswer(p.text, p.kind, False, None, None) for p in parts],
        )
    ranked = scores(question, parts, cands, embedder, opts)
    overall = ranked.max(axis=0)
    main_ids = {h.chunk_id for h in main}
    in_main = [c.passage.chunk_id in main_ids for c in cands]
    picked = _answer_parts(question, parts, cands, ranked, in_main, siblings, opts)
    if ner is not None and len(parts) == 1:
        _decide(question, cands, overall, picked)
    chosen, list_lines = picked.chosen, picked.list_lines
    if not list_lines:
        _chain(question, parts, cands, overall, in_main, picked, opts)
        _bridge_picks(question, parts, cands, overall, picked, opts)
    # Beside a list, a couple of sentences of context; otherwise up to max_sentences.
    room = len(chosen) + opts.list_context if list_lines else opts.max_sentences
    first_hop = anchors(cands, overall, [s for s, _ in chosen], opts.anchor_documents)
    fill = overall + bridge_bonus(cands, first_hop, question, opts.bridge_weight)
    usable = in_main
    if list_lines and about:
        # Beside a list, context comes from passages about the question's subject: one
        # firm's steps are not explained by another firm's "Step one is ...".
        usable = [m and c.passage.chunk_id in about for m, c in zip(in_main, cands, strict=True)]
    _fill(chosen, cands, fill, usable, room)
    listed = set(list_lines)
    prose = [(s, cid) for s, cid in chosen if f"- {s} [{cid}]" not in listed]
    # The short answer leads, cited to the sentence it was read from; then a list when one
    # was asked for, then the quoted sentences.
    lines = [f"{p.phrase} {p.cites}" for p in picked.parts if p.phrase and not list_lines]
    lines = ["; ".join(lines)] if lines else []
    if list_lines:
        lines.append("\n".join(list_lines))
    titles = {h.chunk_id: h.doc_title for h in passages}
    titles.update({c.passage.chunk_id: c.passage.doc_title for c in picked.list_items})
    if prose:
        quoted = (f"{with_subject(s, titles.get(cid, ''))} [{cid}]" for s, cid in prose)
        lines.append(" ".join(quoted))
    lines += graph_lines(graph_context, cands, overall, chosen)
    cited = list(dict.fromkeys(cid for _, cid in chosen))
    # The ranking the LLM reader is shown: anchored on the best sentences alone, not on the
    # ones this answer chose.
    anchor = anchors(cands, overall, [], opts.anchor_documents)
    ranking = overall + bridge_bonus(cands, anchor, question, opts.bridge_weight)
    return Reading(
        "\n\n".join(lines),
        chosen,
        [Citation(c, titles.get(c, "")) for c in cited],
        note=note,
        parts=picked.parts,
        candidates=cands,
        ranking=tuple(float(x) for x in ranking),
    )


@dataclass
class _Picked:
    """What the question's parts chose: (sentence, chunk id) pairs in order, the lines of an
    asked-for list and its items, and each part's answer."""

    chosen: list[tuple[str, str]] = field(default_factory=list)
    list_lines: list[str] = field(default_factory=list)
    list_items: list[Candidate] = field(default_factory=list)
    parts: list[PartAnswer] = field(default_factory=list)


def _answer_parts(
    question: str,
    parts: Sequence[QuestionPart],
    candidates: list[Candidate],
    scores: np.ndarray,
    in_main: list[bool],
    siblings: Siblings | None,
    opts: ReaderSettings,
) -> _Picked:
    out = _Picked()
    chosen = out.chosen
    everything = " ".join(f"{c.passage.doc_title} {c.sentence}" for c in candidates)
    for p_index, part in enumerate(parts):
        order = [i for i in np.argsort(-scores[p_index]) if in_main[i]]
        if not order:
            out.parts.append(PartAnswer(part.text, part.kind, False, None, None))
            continue
        # The part's answer is the best sentence that states a fact of the asked kind about
        # the asked relation; only when none does, the best sentence at all (not found).
        answering = [i for i in order if _found(part, candidates[i], question)]
        cast = cast_sentence(part, question, candidates, answering, opts.role_sentences)
        pick = cast[0] if cast else answering[0] if answering else order[0]
        calls = (
            None
            if cast or part.kind in ("YESNO", "LIST")
            else _naming(part, question, candidates, order, opts)
        )
        if calls is not None:
            pick, answering = calls, [calls, *answering]
        best = candidates[pick]
        found = bool(answering)
        phrase = None
        if found and best.entities:
            roles = cast[1] if cast else ()
            phrase = short_answer(part.kind, best.sentence, best.entities, question, roles)
            if part.kind not in ("YESNO", "LIST"):
                phrase = (
                    the_asked(best.sentence, question) or _figure(part, best, question) or phrase
                )
            if phrase and part.kind == "PERSON":
                phrase = full_name(phrase, best.passage.doc_title, candidates)
        if part.kind == "LIST":
            items = _enumeration(order[: opts.list_heads], candidates, siblings, opts)
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
                phrase if part.kind != "LIST" else None,
                top=bool(answering) and pick == order[0],
                named=coverage(part, "", everything)[1] if part.name_words else 1.0,
                cast=cast is not None and part.kind != "LIST",
            )
        )
    return out


def _naming(
    part: QuestionPart,
    question: str,
    candidates: list[Candidate],
    order: Sequence[int],
    opts: ReaderSettings,
) -> int | None:
    """The first of the part's best sentences that calls a name the asked noun
    (``the_asked``); when none does, the first that gives the asked noun a figure
    (``_figure``)."""
    calling = order[: opts.called_sentences]
    named = next((i for i in calling if the_asked(candidates[i].sentence, question)), None)
    if named is not None:
        return named
    figuring = order[: opts.figure_sentences]
    return next((i for i in figuring if _figure(part, candidates[i], question)), None)


def _figure(part: QuestionPart, c: Candidate, question: str) -> str | None:
    """The figure ``c`` gives the asked noun (``asked_figure``), in a sentence about the
    question's subject: one of its names in the sentence or the passage's title ("What is
    the museum's budget?" is not answered by another museum's "budget of £2m")."""
    if part.name_words and coverage(part, c.sentence, c.passage.doc_title)[1] <= 0:
        return None
    return asked_figure(c.sentence, question)


def _decide(
    question: str,
    cands: list[Candidate],
    overall: np.ndarray,
    picked: _Picked,
) -> None:
    """A yes/no verdict (``reader.verdict``) or the option a choice question picks
    (``reader.choice``) when the evidence gives one: its sentences are quoted first and the
    part counts as answered, by word overlap, so never HIGH (not ``top``)."""
    if picked.parts[0].kind == "YESNO":
        found: Verdict | Choice | None = verdict(question, cands, overall)
    else:
        found = choose(question, cands, overall) or kin(question, cands)
    if found is None:
        return
    pairs = [(cands[i].sentence, cands[i].passage.chunk_id) for i in found.support]
    picked.chosen[:] = list(dict.fromkeys(pairs + picked.chosen))
    part = picked.parts[0]
    picked.parts[0] = PartAnswer(
        part.text,
        part.kind,
        True,
        pairs[0][0],
        pairs[0][1],
        1.0,
        found.answer if isinstance(found, Verdict) else found.option,
        tuple(dict.fromkeys(cid for _, cid in pairs)),
        named=part.named,
        cast=True,  # compared from both sides: a chain's second hop does not replace it
    )


def _chain(
    question: str,
    parts: Sequence[QuestionPart],
    cands: list[Candidate],
    overall: np.ndarray,
    in_main: list[bool],
    picked: _Picked,
    opts: ReaderSettings,
) -> None:
    """Quote the sentence that answers a chain's second hop (``reader.chain``), and lead
    with the short answer read from it when there is one."""
    hop = second_hop(cands, overall, parts, question, opts.hop_anchors, opts.hop_bridge_documents)
    if hop is None or not in_main[hop.index]:
        return
    c = cands[hop.index]
    if (c.sentence, c.passage.chunk_id) not in picked.chosen:
        picked.chosen.append((c.sentence, c.passage.chunk_id))
    if hop.phrase and not picked.parts[0].cast:
        part = picked.parts[0]
        picked.parts[0] = replace(part, phrase=hop.phrase, read_from=(c.passage.chunk_id,))


def _bridge_picks(
    question: str,
    parts: Sequence[QuestionPart],
    cands: list[Candidate],
    overall: np.ndarray,
    picked: _Picked,
    opts: ReaderSettings,
) -> None:
    """Lead with the candidate of the answer sentence that the chain's bridge modifies
    (``reader.bridged``)."""
    part = picked.parts[0] if len(parts) == 1 else None
    if part is None or part.cast or part.kind in ("YESNO", "LIST") or part.sentence is None:
        return
    best = next((c for c in cands if _reads(part, c)), None)
    if best is None:
        return
    found = bridged(
        parts[0], question, best, part.phrase, cands, overall, opts.bridge_subject_sentences
    )
    if found is not None:
        picked.parts[0] = replace(part, phrase=found)


def _reads(part: PartAnswer, c: Candidate) -> bool:
    """The part's short answer was read from ``c``: its sentence, or the chain's second hop's
    (``read_from``)."""
    if part.read_from:
        return c.passage.chunk_id == part.read_from[0] and (part.phrase or "") in c.sentence
    return (c.sentence, c.passage.chunk_id) == (part.sentence, part.chunk_id)


def _fill(
    chosen: list[tuple[str, str]],
    candidates: list[Candidate],
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


def _found(part: QuestionPart, best: Candidate, question: str) -> bool:
    """The asked-for fact is there: a fact of the asked kind (a candidate of the asked type
    by NER when the sentence was read by it), in a sentence using the relation the part asks
    about (when the part names one)."""
    if part.kind == "YESNO":
        return False  # quoting evidence gives no verdict; the reader must compare
    if not carries(part.kind, best.sentence, part.text):
        return False
    read = best.entities is not None
    if (
        read
        and part.kind in ("PERSON", "PLACE", "DATE")
        and not typed_candidates(part.kind, best.entities or (), question)
    ):
        return False
    rel, _ = coverage(part, best.sentence, best.passage.doc_title)
    return rel > 0 or not part.relation_words


def _enumeration(
    top: Sequence[int],
    candidates: list[Candidate],
    siblings: Siblings | None,
    opts: ReaderSettings,
) -> list[Candidate]:
    """Every item of the first enumeration among the best sentences, in document order."""
    for i in top:
        head = item_head(candidates[i].sentence)
        if head is None:
            continue
        anchor = candidates[i].passage
        pool = list(siblings(anchor.chunk_id)) if siblings is not None else []
        if not pool:
            pool = [c.passage for c in candidates if c.passage.doc_title == anchor.doc_title]
        items: list[Candidate] = []
        seen: set[str] = set()
        for rank, passage in enumerate(pool):
            for position, sentence in enumerate(split_sentences(passage.text)):
                if item_head(sentence) == head and sentence not in seen:
                    seen.add(sentence)
                    items.append(Candidate(sentence, passage, rank, position))
        if len(items) >= 2:
            return items[: opts.max_list_items]
    return []
