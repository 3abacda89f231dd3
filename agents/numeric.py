"""Arithmetic an analyst would do with a calculator, done by code and reported with its working.

``sum_numbers`` (total, count, min, max, mean, each also formatted), ``find_convenient_sums``
(the subsets of amounts that add up to a round total or to a given target within a tolerance:
a list of debts that comes to exactly a limit is worth a second look), ``detect_patterns``
(repeated values, values within a few per cent of each other, values that are whole multiples
of another) and ``assess_threshold`` (a value against a limit: whether the limit is a maximum
or a minimum is read from the words that state it, and the result gives headroom, utilisation
and a sentence). Values travel as floats with a unit ("GBP", "%", "day", ""); formatting is
``extraction.numbers.format_value``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from extraction.numbers import Direction, direction_of, format_value, same_number

# Searching subsets is exponential: 18 amounts is 262,143 subsets, well under a second.
MAX_SUBSET_VALUES = 18
MAX_SUMS_REPORTED = 10
# "Round" totals the subset search looks for when no target is given: multiples of these.
ROUND_STEPS = (1000.0, 500.0, 100.0)


class NumericError(ValueError):
    """Arguments a numeric tool cannot work with; the message goes back to the caller."""


def _fmt(value: float, unit: str) -> str:
    return format_value(value, unit)


def sum_numbers(values: Sequence[float], unit: str = "") -> dict[str, Any]:
    if not values:
        raise NumericError("no values to add")
    total = math.fsum(values)
    mean = total / len(values)
    lo, hi = min(values), max(values)
    return {
        "sum": total,
        "count": len(values),
        "min": lo,
        "max": hi,
        "mean": mean,
        "unit": unit,
        "formatted": {
            "sum": _fmt(total, unit),
            "min": _fmt(lo, unit),
            "max": _fmt(hi, unit),
            "mean": _fmt(mean, unit),
        },
    }


def assess_threshold(
    value: float, limit: float, direction: Direction, unit: str = "", measure: str = ""
) -> dict[str, Any]:
    """``value`` against ``limit``: passes, headroom (how far inside the limit, negative when
    outside), utilisation (value as a share of the limit) and a sentence saying so."""
    what = measure or "the value"
    if direction == "max":
        passes = value <= limit
        headroom = limit - value
    elif direction == "min":
        passes = value >= limit
        headroom = value - limit
    else:
        passes = same_number(value, limit)
        headroom = -abs(value - limit)
    utilisation = value / limit * 100 if limit else None
    v, lim = _fmt(value, unit), _fmt(limit, unit)
    gap = _fmt(abs(headroom), unit)
    share = f" ({utilisation:.1f}% of it)" if utilisation is not None else ""
    if direction == "max":
        sentence = (
            f"{what.capitalize()} of {v} is within the maximum of {lim}{share}, "
            f"leaving headroom of {gap}."
            if passes
            else f"{what.capitalize()} of {v} is over the maximum of {lim}{share} by {gap}."
        )
    elif direction == "min":
        sentence = (
            f"{what.capitalize()} of {v} meets the minimum of {lim}{share}, {gap} above it."
            if passes
            else f"{what.capitalize()} of {v} is below the minimum of {lim}{share} by {gap}."
        )
    else:
        sentence = f"{what.capitalize()} of {v} {'equals' if passes else 'differs from'} {lim}."
    return {
        "value": value,
        "limit": limit,
        "direction": direction,
        "unit": unit,
        "passes": passes,
        "headroom": headroom,
        "utilisation_percent": utilisation,
        "formatted": {"value": v, "limit": lim, "headroom": _fmt(headroom, unit)},
        "sentence": sentence,
    }


def compare_amounts(
    values: dict[str, float], direction: Direction, unit: str = "", measure: str = ""
) -> dict[str, Any]:
    """Which of two or more named figures is the larger (``direction`` "max") or the smaller
    ("min"), by how much and by what ratio, with a sentence saying so. Equal figures name no
    winner."""
    if len(values) < 2:
        raise NumericError("at least two values are needed to compare")
    ordered = sorted(values.items(), key=lambda kv: kv[1], reverse=direction == "max")
    (first, top), (second, runner) = ordered[0], ordered[1]
    what = f" {measure}" if measure else ""
    shown = {k: _fmt(v, unit) for k, v in values.items()}
    if top == runner:
        winner, sentence = "", f"{first} and {second} state the same{what}: {shown[first]}."
    else:
        winner = first
        word = "higher" if direction == "max" else "lower"
        sentence = (
            f"{first} has the {word}{what}: {shown[first]} against {shown[second]} for "
            f"{second}, a difference of {_fmt(abs(top - runner), unit)}."
        )
    return {
        "winner": winner,
        "difference": abs(top - runner),
        "ratio": top / runner if runner else None,
        "formatted": shown,
        "sentence": sentence,
    }


def find_convenient_sums(
    values: Sequence[float],
    target: float | None = None,
    tolerance: float = 0.0,
    unit: str = "",
    min_size: int = 2,
) -> dict[str, Any]:
    """Subsets of ``values`` (at least ``min_size`` of them) whose total is ``target`` within
    ``tolerance``, or, without a target, a round number (a multiple of 1,000, 500 or 100)
    within ``tolerance``. Smallest subsets first."""
    if len(values) > MAX_SUBSET_VALUES:
        raise NumericError(f"at most {MAX_SUBSET_VALUES} values can be searched for sums")
    if tolerance < 0:
        raise NumericError("tolerance must not be negative")
    if target is None and not any(v for v in values):
        raise NumericError("no non-zero values to add")
    found: list[dict[str, Any]] = []
    for size in range(max(1, min_size), len(values) + 1):
        for combo in itertools.combinations(range(len(values)), size):
            total = math.fsum(values[i] for i in combo)
            hit = _meets(total, target, tolerance)
            if hit is None:
                continue
            found.append(
                {
                    "indices": list(combo),
                    "values": [values[i] for i in combo],
                    "total": total,
                    "formatted_total": _fmt(total, unit),
                    "matches": hit,
                }
            )
            if len(found) >= MAX_SUMS_REPORTED:
                return {"target": target, "tolerance": tolerance, "sums": found, "truncated": True}
    return {"target": target, "tolerance": tolerance, "sums": found, "truncated": False}


def _meets(total: float, target: float | None, tolerance: float) -> str | None:
    if target is not None:
        return _fmt(target, "") if abs(total - target) <= tolerance + 1e-9 else None
    if not total:
        return None
    for step in ROUND_STEPS:
        nearest = round(total / step) * step
        if nearest and abs(total - nearest) <= tolerance + 1e-9:
            return f"a multiple of {_fmt(step, '')}"
    return None


def detect_patterns(
    values: Sequence[float], near_percent: float = 5.0, unit: str = ""
) -> dict[str, Any]:
    """Repeated values, pairs within ``near_percent`` of each other (not equal), and pairs
    where one is a whole multiple (2x or more) of the other."""
    if len(values) < 2:
        raise NumericError("at least two values are needed to look for patterns")
    seen: dict[float, list[int]] = {}
    for i, v in enumerate(values):
        seen.setdefault(round(v, 2), []).append(i)
    duplicates = [
        {"value": v, "formatted": _fmt(v, unit), "indices": idx}
        for v, idx in seen.items()
        if len(idx) > 1
    ]
    near: list[dict[str, Any]] = []
    multiples: list[dict[str, Any]] = []
    for i, j in itertools.combinations(range(len(values)), 2):
        a, b = values[i], values[j]
        if same_number(a, b) or not a or not b:
            continue
        diff = abs(a - b) / max(abs(a), abs(b)) * 100
        if diff <= near_percent:
            near.append({"indices": [i, j], "values": [a, b], "difference_percent": diff})
        big, small = (a, b) if abs(a) >= abs(b) else (b, a)
        ratio = big / small
        if abs(ratio) >= 2 and same_number(ratio, round(ratio), 1e-6):
            multiples.append({"indices": [i, j], "values": [a, b], "ratio": round(ratio)})
    return {"duplicates": duplicates, "near": near, "multiples": multiples, "unit": unit}


__all__ = [
    "NumericError",
    "assess_threshold",
    "detect_patterns",
    "direction_of",
    "find_convenient_sums",
    "sum_numbers",
]
