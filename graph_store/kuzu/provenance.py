"""Provenance folding for the embedded store's batch writer, kept free of I/O.

Relations carry the chunk ids that evidence them and alias links the document ids that
name them. A batch write takes back what the batch's documents contributed before, adds what
they contribute now and writes every touched key once: one delete and one create per key and
transaction. Kùzu 0.11.3 does not reliably show a later statement of a transaction the
relationships an earlier one created or deleted (a batch of rewritten documents left duplicate
RELATED edges), so nothing in a batch may read what the same batch wrote.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

RelationKey = tuple[str, str, str]
AliasKey = tuple[str, str]


@dataclass(frozen=True)
class Folded:
    """Keys whose stored edge goes, and the rows written in their place (non-empty provenance)."""

    delete: list[dict[str, Any]]
    create: list[dict[str, Any]]


def _owned_by(item: str, prefixes: Sequence[str]) -> bool:
    return any(item.startswith(p) for p in prefixes)


def fold_relations(
    stored: Iterable[Sequence[Any]],
    new: Iterable[dict[str, Any]],
    doc_ids: Iterable[str],
) -> Folded:
    """Stored rows are (source, target, type, weight, evidence, extractor) of edges that either
    hold evidence from the batch's documents or share a key with a new row; ``new`` rows are
    ``relation_rows`` output for the whole batch."""
    prefixes = [f"{d}-" for d in doc_ids]
    merged: dict[RelationKey, dict[str, Any]] = {}
    for s, t, ty, weight, evidence, extractor in stored:
        key = (s, t, ty)
        kept = sorted({x for x in evidence if not _owned_by(x, prefixes)})
        row = merged.get(key)
        if row is None:
            merged[key] = {
                "source_id": s,
                "target_id": t,
                "type": ty,
                "weight": float(weight) if kept else 0.0,
                "evidence": kept,
                "extractor": extractor,
            }
        else:  # a key stored twice (a damaged store) is folded back into one edge
            row["evidence"] = sorted(set(row["evidence"]) | set(kept))
            if kept:
                row["weight"] = max(row["weight"], float(weight))
    delete = [{"source_id": k[0], "target_id": k[1], "type": k[2]} for k in sorted(merged)]
    for r in new:
        key = (r["source_id"], r["target_id"], r["type"])
        row = merged.setdefault(key, {**r, "weight": 0.0, "evidence": []})
        row["evidence"] = sorted(set(row["evidence"]) | set(r["evidence"]))
        row["weight"] = max(row["weight"], float(r["weight"]))
        row["extractor"] = r["extractor"]
    create = [merged[k] for k in sorted(merged) if merged[k]["evidence"]]
    return Folded(delete=delete, create=create)


def fold_alias_links(
    stored: Iterable[Sequence[Any]],
    new: Iterable[dict[str, Any]],
    doc_ids: Iterable[str],
) -> Folded:
    """Stored rows are (normalized, name, entity, method, confidence, doc_ids); ``new`` rows are
    ``alias_rows`` output of every document in the batch."""
    gone = set(doc_ids)
    merged: dict[AliasKey, dict[str, Any]] = {}
    for normalized, name, entity_id, method, confidence, docs in stored:
        key = (normalized, entity_id)
        kept = sorted({d for d in docs if d not in gone})
        row = merged.setdefault(
            key,
            {
                "normalized": normalized,
                "name": name,
                "entity_id": entity_id,
                "method": method,
                "confidence": float(confidence),
                "doc_ids": [],
            },
        )
        row["doc_ids"] = sorted(set(row["doc_ids"]) | set(kept))
    delete = [{"normalized": k[0], "entity_id": k[1]} for k in sorted(merged)]
    fresh: set[AliasKey] = set()
    for r in new:
        key = (r["normalized"], r["entity_id"])
        if key not in merged:
            merged[key] = {**r, "doc_ids": sorted(set(r["doc_ids"]))}
            fresh.add(key)
            continue
        row = merged[key]
        row["doc_ids"] = sorted(set(row["doc_ids"]) | set(r["doc_ids"]))
        # The batch's own reading of the alias decides method and confidence, strongest first.
        if key not in fresh or float(r["confidence"]) > row["confidence"]:
            row["method"], row["confidence"] = r["method"], float(r["confidence"])
            fresh.add(key)
    create = [merged[k] for k in sorted(merged) if merged[k]["doc_ids"]]
    return Folded(delete=delete, create=create)
