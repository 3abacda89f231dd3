"""The store's explore queries, or a 501 problem where the adapter does not provide them; and
what the explorer page is given on top of the store's answers: node sizes (PageRank) and the
sentence of an evidence chunk that supports a relation."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from api.errors import Problem
from extraction.chunking import split_sentences
from graph_store import GraphStore
from graph_store.explore_port import GraphExplorer


def explore_port(store: GraphStore) -> GraphExplorer:
    if not isinstance(store, GraphExplorer):
        raise Problem(
            501, f"the {type(store).__name__} store does not implement the explore queries"
        )
    return store


def with_ranks(explorer: GraphExplorer, nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``nodes`` (jsonable ``GraphNode``s) with each one's ``pagerank`` and ``mentions``."""
    ranks = explorer.entity_ranks([n["id"] for n in nodes])
    for node in nodes:
        rank = ranks.get(node["id"])
        node["pagerank"] = rank.pagerank if rank else 0.0
        node["mentions"] = rank.mentions if rank else 0
    return nodes


@dataclass(frozen=True)
class Support:
    """The sentence of a chunk that names both ends of a relation (or, failing that, the one
    naming most of them), as characters ``start:end`` of the chunk's text; empty when no
    sentence names either end."""

    sentence: str = ""
    start: int = -1
    end: int = -1


def supporting_sentence(text: str, ends: Sequence[Iterable[str]]) -> Support:
    """``ends``: per end of the relation, its name and aliases. The first sentence that names
    the most ends wins; a name counts as whole words, case aside ("Trust" is not in
    "Trustee")."""
    patterns = [_names_pattern(names) for names in ends]
    best, named = "", 0
    for sentence in split_sentences(text):
        count = sum(1 for p in patterns if p is not None and p.search(sentence))
        if count > named:
            best, named = sentence, count
        if named == len(patterns):
            break
    if not best:
        return Support()
    # Sentences come with their whitespace collapsed; find the span in the chunk's own text.
    words = [re.escape(w) for w in best.split()]
    found = re.search(r"\s+".join(words), text)
    if found is None:
        return Support(best)
    return Support(best, found.start(), found.end())


def _names_pattern(names: Iterable[str]) -> re.Pattern[str] | None:
    # Longest first, so that "Harbour Trust" wins over "Harbour" inside the alternation.
    usable = sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True)
    if not usable:
        return None
    body = "|".join(r"\s+".join(re.escape(w) for w in n.split()) for n in usable)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE)


# A sentence end inside a chunk: where the overlap the chunker repeats may stop.
_SENTENCE_END = re.compile(r"[.!?][\"')\]]?(?=\s)")


def document_text(chunks: Sequence[str]) -> str:
    """A document's text from its chunks in order, each chunk's opening sentences dropped
    where they repeat the end of the one before (the chunker's overlap); chunks that do not
    overlap are separate paragraphs."""
    text = ""
    for chunk in chunks:
        if not text:
            text = chunk
            continue
        ends = [m.end() for m in _SENTENCE_END.finditer(chunk)]
        cut = next((k for k in reversed(ends) if text.endswith(chunk[:k])), 0)
        text += chunk[cut:] if cut else "\n\n" + chunk
    return text
