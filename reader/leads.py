"""What may change a reading's lead once each part has its answer: a yes/no verdict or the
option a choice question picks, and the sentence that answers a chain's second hop."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

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
) -> bool:
    """Quote the sentence that answers a chain's second hop (``reader.chain``), and lead
    with the short answer read from it when there is one, unless the part read what that
    same sentence gives the asked noun (``PartAnswer.by_noun``), which the hop does not.
    Whether the hop's answer now leads."""
    hop = second_hop(cands, overall, parts, question, opts.hop_anchors, opts.hop_bridge_documents)
    if hop is None or not in_main[hop.index]:
        return False
    c = cands[hop.index]
    if (c.sentence, c.passage.chunk_id) not in picked.chosen:
        picked.chosen.append((c.sentence, c.passage.chunk_id))
    part = picked.parts[0]
    same = (part.sentence, part.chunk_id) == (c.sentence, c.passage.chunk_id)
    if hop.phrase and not part.cast and not (same and part.by_noun):
        picked.parts[0] = replace(part, phrase=hop.phrase, read_from=(c.passage.chunk_id,))
        return True
    return False
