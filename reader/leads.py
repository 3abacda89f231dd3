"""What may change a reading's lead once each part has its answer: a yes/no verdict or the
option a choice question picks, the sentence that answers a chain's second hop, and the
candidate the chain's bridge modifies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from reader.bridged import bridged
from reader.chain import second_hop
from reader.choice import Choice, choose
from reader.kinship import kin
from reader.question import QuestionPart
from reader.reading import PartAnswer, Picked
from reader.sentence_rank import Candidate
from reader.settings import ReaderSettings
from reader.verdict import Verdict, verdict


def decide(
    question: str,
    cands: list[Candidate],
    overall: np.ndarray,
    picked: Picked,
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


def chain(
    question: str,
    parts: Sequence[QuestionPart],
    cands: list[Candidate],
    overall: np.ndarray,
    in_main: list[bool],
    picked: Picked,
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


def bridge_picks(
    question: str,
    parts: Sequence[QuestionPart],
    cands: list[Candidate],
    overall: np.ndarray,
    picked: Picked,
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
