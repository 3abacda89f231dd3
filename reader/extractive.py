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
from dataclasses import replace

import numpy as np

from extraction.chunking import split_sentences
from reader.answer_facts import carries, coverage, item_head
from reader.answer_types import Ner, asked_completion, asked_figure, short_answer, the_asked
from reader.answer_types import candidates as typed_candidates
from reader.compose import walk
from reader.leads import chain, decide
from reader.question import QuestionPart, analyse
from reader.quote import graph_lines, with_subject
from reader.reading import NO_LLM_NOTE, Citation, PartAnswer, Picked, Reading
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
from retrieval.embedder import Embedder

# chunk id -> every chunk of its document, in document order (for whole enumerations).
Siblings = Callable[[str], Sequence[Passage]]


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
        decide(question, cands, overall, picked)
    chosen, list_lines = picked.chosen, picked.list_lines
    if not list_lines and not chain(question, parts, cands, overall, in_main, picked, opts):
        _composed(question, cands, in_main, embedder, opts, picked)
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


def _answer_parts(
    question: str,
    parts: Sequence[QuestionPart],
    candidates: list[Candidate],
    scores: np.ndarray,
    in_main: list[bool],
    siblings: Siblings | None,
    opts: ReaderSettings,
) -> Picked:
    out = Picked()
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
        cast = cast_sentence(
            part, question, candidates, answering, opts.role_sentences, opts.holder_sentences
        )
        pick = cast.index if cast else answering[0] if answering else order[0]
        calls = (
            None
            if cast or part.kind in ("YESNO", "LIST")
            else _naming(part, question, candidates, order, opts)
        )
        if calls is not None:
            pick, answering = calls, [calls, *answering]
        best = candidates[pick]
        found = bool(answering)
        phrase = noun = None
        entities = [*(best.entities or ()), *(cast.unlabelled if cast else ())]
        if found and entities:
            roles = cast.spans if cast else ()
            phrase = short_answer(part.kind, best.sentence, entities, question, roles)
            if part.kind not in ("YESNO", "LIST"):
                named = the_asked(best.sentence, question)
                if named is None:
                    noun = _figure(part, best, question) or _completion(part, best, question)
                phrase = named or noun or phrase
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
                by_noun=noun is not None,
            )
        )
    return out


def _composed(
    question: str,
    cands: list[Candidate],
    in_main: list[bool],
    embedder: Embedder,
    opts: ReaderSettings,
    picked: Picked,
) -> bool:
    """Lead with the two-step reading of a question that describes its subject
    (``reader.compose``), unless the part's answer fills the asked role by the parse or the
    question is one of choice or yes/no (``PartAnswer.cast``)."""
    part = picked.parts[0] if len(picked.parts) == 1 else None
    if part is None or part.cast or part.kind in ("YESNO", "LIST"):
        return False
    got = walk(
        question, cands, in_main, embedder, opts, one_part_reader(cands, embedder, opts)
    ).best
    if got is None:
        return False
    for i in (*(s.index for s in got.steps), got.index):
        pair = (cands[i].sentence, cands[i].passage.chunk_id)
        if pair not in picked.chosen:
            picked.chosen.append(pair)
    c = cands[got.index]
    picked.parts[0] = replace(part, phrase=got.phrase, read_from=(c.passage.chunk_id,))
    return True


def one_part_reader(
    cands: list[Candidate], embedder: Embedder, opts: ReaderSettings
) -> Callable[[str, Sequence[bool]], tuple[float, int, str] | None]:
    """This reader's answer to a one-part question from the usable sentences alone."""

    def read(question: str, usable: Sequence[bool]) -> tuple[float, int, str] | None:
        parts = analyse(question)
        if len(parts) != 1 or parts[0].kind in ("YESNO", "LIST"):
            return None
        ranked = scores(question, parts, cands, embedder, opts)
        part = _answer_parts(question, parts, cands, ranked, list(usable), None, opts).parts[0]
        if not part.found or not part.phrase:
            return None
        at = next(
            i
            for i, c in enumerate(cands)
            if (c.sentence, c.passage.chunk_id) == (part.sentence, part.chunk_id) and usable[i]
        )
        return float(ranked[0][at]), at, part.phrase

    return read


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
    figured = next((i for i in figuring if _figure(part, candidates[i], question)), None)
    if figured is not None:
        return figured
    completing = order[: opts.of_what_sentences]
    return next((i for i in completing if _completion(part, candidates[i], question)), None)


def _about(part: QuestionPart, c: Candidate) -> bool:
    """One of the question's names is in the sentence or its passage's title (or the
    question names nothing)."""
    return not part.name_words or coverage(part, c.sentence, c.passage.doc_title)[1] > 0


def _figure(part: QuestionPart, c: Candidate, question: str) -> str | None:
    """The figure ``c`` gives the asked noun (``asked_figure``), in a sentence about the
    question's subject: one of its names in the sentence or the passage's title ("What is
    the museum's budget?" is not answered by another museum's "budget of £2m")."""
    return asked_figure(c.sentence, question) if _about(part, c) else None


def _completion(part: QuestionPart, c: Candidate, question: str) -> str | None:
    """What ``c`` says the noun "of what" completes is of (``asked_completion``)."""
    return asked_completion(c.sentence, question, _about(part, c))


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
