"""The verifier's number check: every number an answer states must be one the evidence states
or a tool computed.

Numbers are read with ``extraction.numbers`` on both sides, so "£1.2m" in an answer matches
"£1,200,000" in a chunk, and "45.7%" matches a tool's 45.6789 (a value rounded to the places
the answer writes). A bare count of ten or less ("two priorities", "3 limits checked") is not
checked: an answer counts what it lists. Citations are removed first (chunk ids hold digits).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from agents.models import EvidenceBundle, ToolRecord
from extraction.numbers import extract_numbers

_CITATION = re.compile(r"\[[^\]]*\]")
SMALL_COUNT = 10


def _values(text: str) -> set[float]:
    out: set[float] = set()
    for n in extract_numbers(text):
        out.add(n.value)
        digits = re.search(r"\d[\d,]*(?:\.\d+)?", n.text)
        if digits:  # the number as written, without its scale word ("48.5" of "£48.5m")
            out.add(float(digits.group().replace(",", "")))
    return out


def _walk(value: Any) -> Iterable[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield float(value)
    elif isinstance(value, str):
        yield from _values(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _walk(v)


def known_values(evidence: EvidenceBundle, tools: Sequence[ToolRecord]) -> set[float]:
    known: set[float] = set()
    for item in evidence.items:
        # The title too: answers name documents ("the Plan 2026-2031") as the evidence shows them.
        known |= _values(item.text) | _values(item.doc_title)
    for record in tools:
        if record.error is None:
            known |= set(_walk(record.arguments)) | set(_walk(record.result))
    return known


def _places(written: str) -> int:
    found = re.search(r"\.(\d+)", written)
    return len(found.group(1)) if found else 0


def unmatched_numbers(
    answer: str, evidence: EvidenceBundle, tools: Sequence[ToolRecord] = ()
) -> list[str]:
    """The numbers of ``answer``, as written, that neither the evidence nor a tool holds."""
    text = _CITATION.sub(" ", answer)
    said = extract_numbers(text)
    if not said:
        return []
    known = known_values(evidence, tools)
    missing: list[str] = []
    for n in said:
        if not n.unit and n.value.is_integer() and abs(n.value) <= SMALL_COUNT:
            continue
        places = _places(n.text)
        written = _values(n.text)  # the value and the digits as written
        if n.text in missing or any(
            abs(w - k) < 0.005 or abs(w - round(k, places)) < 1e-9 for w in written for k in known
        ):
            continue
        missing.append(n.text)
    return missing


__all__ = ["known_values", "unmatched_numbers"]
