"""The threshold catalogue: limits the documents state, read from the graph's numeric facts.

No limit is ever written in code. A limit is a ``NumericFact`` of kind "max" or "min" (see
``extraction/numeric_facts.py``); it is found by the words of its measure ("total debt"), its
entity and its document's title ("Small Debts Relief"), compared in the stored measure form
(``measure_words``). An amount is matched to a limit when it measures the same thing (every
word of the limit's measure, same unit) and is about the other subject the question names: in
"Is Ann Example under the Sample Scheme limits?", the limits are the scheme's and the amounts
Ann Example's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from extraction.numeric_facts import measure_words
from graph_store.types import FactHit

FactSource = Callable[[Sequence[str]], list[FactHit]]  # kinds -> stored facts
LIMIT_KINDS = ("max", "min")


def _subject(hit: FactHit) -> set[str]:
    return set(measure_words(f"{hit.fact.entity_name} {hit.doc_title}"))


def find_limit(hits: Sequence[FactHit], query: str) -> FactHit | None:
    """The stated limit the words of ``query`` best describe: its measure's words count
    twice, its subject's once; None when no measure word is shared."""
    wanted = set(measure_words(query))
    best: tuple[int, int, str] | None = None
    found: FactHit | None = None
    for hit in hits:
        if hit.fact.kind not in LIMIT_KINDS:
            continue
        measure = set(measure_words(hit.fact.measure))
        shared = len(wanted & measure)
        if not shared:
            continue
        key = (2 * shared + len(wanted & _subject(hit)), -len(measure - wanted), hit.fact.id)
        if best is None or key[:2] > best[:2]:
            best, found = key, hit
    return found


@dataclass(frozen=True)
class LimitPair:
    limit: FactHit
    amount: FactHit


def limits_about(hits: Sequence[FactHit], question: str) -> list[FactHit]:
    """The limits whose subject shares the most words with the question (one per measure)."""
    wanted = set(measure_words(question))
    scored = [
        (len(wanted & _subject(h)), h)
        for h in hits
        if h.fact.kind in LIMIT_KINDS and wanted & _subject(h)
    ]
    if not scored:
        return []
    top = max(s for s, _ in scored)
    out: dict[str, FactHit] = {}
    for score, hit in scored:
        if score == top:
            out.setdefault(hit.fact.measure, hit)
    return list(out.values())


def pair_amounts(
    limits: Sequence[FactHit], amounts: Sequence[FactHit], question: str
) -> list[LimitPair]:
    """For each limit, the amount of the question's other subject measuring the same thing."""
    wanted = set(measure_words(question))
    pairs: list[LimitPair] = []
    for limit in limits:
        other = wanted - _subject(limit) - set(measure_words(limit.fact.measure))
        if not other:
            continue
        measure = set(measure_words(limit.fact.measure))
        candidates = [
            a
            for a in amounts
            if a.fact.kind == "amount"
            and a.fact.unit == limit.fact.unit
            and a.fact.doc_id != limit.fact.doc_id
            and other & _subject(a)
            and measure <= set(measure_words(a.fact.measure))
        ]
        if candidates:
            # The closest wording: fewest extra words in the amount's measure.
            best = min(candidates, key=lambda a: (len(measure_words(a.fact.measure)), a.fact.id))
            pairs.append(LimitPair(limit, best))
    return pairs


__all__ = ["FactSource", "LimitPair", "find_limit", "limits_about", "pair_amounts"]
