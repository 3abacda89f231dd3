"""``kg bench qa --llm --answerers``: the modes of a run and the table's columns."""

from __future__ import annotations

from typing import Any

import pytest

from bench.qa_pair import modes_of, table_rows
from core.errors import ConfigError


def test_the_configured_answerer_is_one_llm_mode_and_named_ones_a_mode_each() -> None:
    assert modes_of(()) == ("offline", "llm")
    assert modes_of(("reader", "synthesis", "reader")) == ("offline", "reader", "synthesis")
    assert modes_of(("report",)) == ("offline", "report")
    with pytest.raises(ConfigError, match="unknown answerer"):
        modes_of(("oracle",))


def test_the_table_has_a_column_per_mode() -> None:
    summary: dict[str, Any] = {
        "em": 0.0,
        "f1": 0.5,
        "lead_em": 0.0,
        "lead_f1": 0.5,
        "answer_recall": 1.0,
        "calibration": {"MEDIUM": {"right": 1, "count": 1}},
        "mean_answer_words": 12.0,
        "seconds_per_question": 3.0,
    }
    modes = ["offline", "reader", "synthesis"]
    header, rows = table_rows({"modes": modes, "summary": dict.fromkeys(modes, summary)})
    assert header == ["measure", *modes]
    assert ["MEDIUM right", "1/1", "1/1", "1/1"] in rows
