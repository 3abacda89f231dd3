"""The QA summary's halves: the gap between the developed half and the held-out one, with the
standard error that says how much of it the choice of questions alone can make."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bench.qa import summarise, table_rows


def _row(lead_f1: float) -> dict[str, Any]:
    return {
        "em": 0.0,
        "f1": 0.0,
        "lead_em": lead_f1,
        "lead_f1": lead_f1,
        "recall": 1.0,
        "words": 10,
        "confidence": "MEDIUM",
        "seconds": 1.0,
    }


def test_the_halves_gap_comes_with_its_standard_error() -> None:
    # first half: 3 of 4 right; second: 1 of 4 right
    rows = [_row(v) for v in (1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0)]
    s = summarise(rows)
    assert s["halves"]["1-4"]["lead_f1"] == 0.75 and s["halves"]["5-8"]["lead_f1"] == 0.25
    # each half's sample variance is 0.25 (3 of 4 and 1 of 4 alike): SE = sqrt(2 * 0.25 / 4)
    assert s["halves_gap"]["lead_f1"] == 0.5
    assert s["halves_gap"]["lead_f1_se"] == pytest.approx(math.sqrt(2 * 0.25 / 4), abs=1e-4)
    printed = dict(table_rows({"summary": s})[1])
    assert printed["lead F1 1-4 less 5-8"] == "+0.500 (standard error 0.354)"


def test_equal_halves_have_no_gap_and_one_question_no_halves() -> None:
    s = summarise([_row(1.0), _row(1.0)])
    assert s["halves_gap"] == {"lead_f1": 0.0, "lead_f1_se": 0.0}
    assert "halves_gap" not in summarise([_row(1.0)])
