"""Token-budget packing: a few best passages per document, grouped by document, strongest
evidence at the ends.

Readers (people and LLMs) attend to the start and end of a context more than to its middle,
so document groups are laid out best-first and second-best-last, alternating inwards; a
document's passages stay together so its argument reads in one place."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def pack(
    items: Sequence[T],
    tokens: Callable[[T], int],
    document: Callable[[T], str],
    budget: int,
    per_document: int = 3,
) -> list[T]:
    """Take items in rank order while they fit the budget and their document has room, then
    group them by document and order the groups for reading (see module docstring)."""
    taken: list[T] = []
    used = 0
    per_doc: dict[str, int] = {}
    for item in items:
        doc = document(item)
        cost = max(0, tokens(item))
        if per_doc.get(doc, 0) >= per_document or used + cost > budget:
            continue
        taken.append(item)
        used += cost
        per_doc[doc] = per_doc.get(doc, 0) + 1
    groups: dict[str, list[T]] = {}
    for item in taken:
        groups.setdefault(document(item), []).append(item)
    return [item for group in ends_first(list(groups.values())) for item in group]


def ends_first(ranked: Sequence[T]) -> list[T]:
    """[1, 2, 3, 4, 5] -> [1, 3, 5, 4, 2]: best at the start, runner-up at the end."""
    front = list(ranked[0::2])
    back = list(ranked[1::2])
    return front + back[::-1]


def pack_documents(
    items: Sequence[T],
    tokens: Callable[[T], int],
    document: Callable[[T], str],
    score: Callable[[T], float],
    budget: int,
    per_document: int = 3,
    max_items: int | None = None,
) -> list[list[T]]:
    """Documents ranked by the summed score of their best ``per_document`` items (cumulative
    relevance), each contributing those items while they fit ``budget`` tokens (and
    ``max_items``); returns the admitted groups, best document first, items best first."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(document(item), []).append(item)
    # A document counts what it may contribute: its best ``per_document`` items.
    best = [sorted(g, key=lambda i: -score(i))[:per_document] for g in groups.values()]
    ranked = sorted(best, key=lambda g: -sum(score(i) for i in g))
    used = 0
    count = 0
    out: list[list[T]] = []
    for group in ranked:
        taken: list[T] = []
        for item in group:
            cost = max(0, tokens(item))
            if used + cost > budget or (max_items is not None and count >= max_items):
                continue
            taken.append(item)
            used += cost
            count += 1
        if taken:
            out.append(taken)
    return out
