"""Row shaping and small pure helpers for the Neo4j adapter.

Document, chunk, alias and relation rows are the backend-neutral ones from ``rows``; this
module holds what only Neo4j needs: Lucene escaping, the cosine score mapping, chunk order rows
and personalization seed rows.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from core.errors import StoreError
from graph_schema import RELATION_TYPE_PATTERN, Chunk, Relation

# Lucene's query syntax characters; a backslash makes each one a literal. `&&` and `||` are
# covered by escaping every `&` and `|`.
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
# Upper-case AND / OR / NOT are operators in Lucene; the index analyser lower-cases terms
# anyway, so lower-casing them keeps the words searchable without their operator meaning.
_LUCENE_OPERATORS = re.compile(r"\b(AND|OR|NOT)\b")


def one_line(exc: BaseException) -> str:
    """The driver's message on one line: its connection errors span two ("Couldn't connect
    ...:\nFailed to establish ..."), and the CLI and the log print one line per error."""
    return " ".join(str(exc).split())


def escape_lucene(text: str) -> str:
    """User text as a Lucene query that matches its words, never its syntax."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    return _LUCENE_OPERATORS.sub(lambda m: m.group(1).lower(), escaped).strip()


def cosine_from_score(score: float) -> float:
    """Neo4j's vector index reports cosine similarity as (1 + cos) / 2; the port promises cos
    (what the embedded adapter returns as 1 - distance)."""
    return 2.0 * float(score) - 1.0


def next_rows(chunks: Iterable[Chunk]) -> list[dict[str, Any]]:
    """NEXT edges between consecutive chunks of one document, by chunk index."""
    ordered = sorted(chunks, key=lambda c: c.index)
    return [
        {"source_id": a.id, "target_id": b.id}
        for a, b in itertools.pairwise(ordered)
        if b.index == a.index + 1
    ]


def check_relation_types(relations: Iterable[Relation]) -> None:
    """Relation models validate their type already; this guards rows built by other means."""
    for r in relations:
        if not RELATION_TYPE_PATTERN.match(r.type):
            raise StoreError(f"invalid relation type {r.type!r}")


def seed_rows(seeds: Mapping[str, float]) -> list[dict[str, Any]]:
    """Personalization seeds with a positive finite weight, as query rows."""
    rows = []
    for node_id, weight in seeds.items():
        w = float(weight)
        if w > 0.0 and w != float("inf"):
            rows.append({"id": node_id, "weight": w})
    return rows


def validated_hops(hops: int, max_hops: int) -> int:
    """A path length bound as a plain int in 1..max_hops; bools and other types are refused."""
    if isinstance(hops, bool) or not isinstance(hops, int):
        raise StoreError(f"hops must be an int, got {type(hops).__name__}")
    return max(1, min(max_hops, hops))
