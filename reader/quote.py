"""Quoted sentences that still say who they are about.

Evidence sentences are quoted out of their passage, and one that opens with a pronoun ("He
was runner-up in 1999 ...", "They are native to Asia.") loses its subject on the way: in an
encyclopaedic passage that subject is nearly always what the passage is about, its title.
The title is written after the pronoun, in parentheses, so the quote stays verbatim around it.
Only a title that reads as a name is used ("Ann Lee", "Salix borealis", and a report
in title case, "Harbour Board Transport Plan 2030", whose "It was approved by ..." is the report
itself); a title in sentence case ("List of bus depots in the region") is a description, and
its "it" is seldom the whole of it.

Passages reached through the graph are quoted on lines of their own, with the path that
reached them (``graph_lines``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.names import unqualified_name
from reader.sentence_rank import Candidate, Passage
from reader.text import TITLE_JOINERS, WORD

_SUBJECT = frozenset({"he", "she", "it", "they"})
_POSSESSIVE = frozenset({"his", "her", "its", "their"})


def is_name(title: str) -> bool:
    """Most of the title's words (joiners aside) are capitalised, as in a name."""
    found = [w for w in WORD.findall(title) if w.lower() not in TITLE_JOINERS]
    return bool(found) and 2 * sum(w[0].isupper() for w in found) >= len(found)


def with_subject(sentence: str, title: str) -> str:
    """``sentence`` with its opening pronoun resolved to ``title``, when it opens with one
    and does not name the title itself."""
    first, _, rest = sentence.partition(" ")
    word = first.lower()
    name = unqualified_name(title)  # "Ann Lee (singer)" -> "Ann Lee"
    if not rest or not is_name(name) or name.lower() in sentence.lower():
        return sentence
    if word in _SUBJECT:
        return f"{first} ({name}) {rest}"
    if word in _POSSESSIVE:
        return f"{first} ({name}'s) {rest}"
    return sentence


def graph_lines(
    graph_context: Sequence[tuple[Passage, list[str]]],
    candidates: list[Candidate],
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
        quoted = with_subject(best_sentence, passage.doc_title)
        lines.append(f"Related{via}: {quoted} [{passage.chunk_id}]")
    return lines
