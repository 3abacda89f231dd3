"""Numerical tools: safe arithmetic, comparisons, and thresholds read from quoted evidence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from agents.models import EvidenceBundle, EvidenceItem
from agents.tools import (
    TOOL_NAMES,
    Calculate,
    SumNumbers,
    ToolBox,
    ToolError,
    ToolRequest,
    calculate,
    compare_numbers,
    sum_numbers,
)

TEXT = (
    "In 2025/26 an average of 23 people a month were sent out of area. We will reduce "
    "out-of-area placements to below 10 per month by March 2027."
)


def bundle(*texts: str) -> EvidenceBundle:
    return EvidenceBundle(
        items=[
            EvidenceItem(chunk_id=f"c{i}", doc_id="d", doc_title="T", text=t, score=1.0)
            for i, t in enumerate(texts)
        ]
    )


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("1 + 2 * 3", 7.0),
        ("(23 - 10) / 23 * 100", 13 / 23 * 100),
        ("-2 ** 2", -4.0),
        ("max(3, 9, 4) - min(2, 1)", 8.0),
        ("1350 / 2", 675.0),
        ("7 // 2 + 7 % 2", 4.0),
    ],
)
def test_calculate(expression: str, value: float) -> None:
    assert calculate(expression) == pytest.approx(value)


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os').system('true')",
        "open('x')",
        "(1).__class__",
        "a + 1",
        "[1, 2]",
        "2 ** 1000",
        "1,350 / 2",
        "1 / 0",
        "True + 1",
        "lambda: 1",
        "x" * 600,
    ],
)
def test_calculate_refuses_anything_but_arithmetic(expression: str) -> None:
    with pytest.raises(ToolError):
        calculate(expression)


@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6))
def test_calculate_adds_like_python(a: int, b: int) -> None:
    assert calculate(f"{a} + ({b}) * 2") == a + b * 2


def test_compare_and_sum() -> None:
    c = compare_numbers(23, 10)
    assert c["difference"] == 13 and c["larger"] == "a"
    assert c["percent_change_from_b"] == pytest.approx(130.0)
    assert compare_numbers(1, 0)["ratio"] is None
    s = sum_numbers([1.5, 2.5, 5])
    assert (s["sum"], s["count"], s["mean"]) == (9.0, 3, 3.0)
    with pytest.raises(ToolError):
        sum_numbers([])


def test_check_threshold_reads_the_threshold_from_the_quoted_chunk() -> None:
    tools = ToolBox(bundle("unrelated text", TEXT))
    r = tools.check_threshold(23, "<", "below 10 per month", "placements per month")
    assert (r["threshold"], r["passes"], r["chunk_id"]) == (10.0, False, "c1")
    assert tools.check_threshold(8, "<", "below 10 per month", chunk_id="c1")["passes"] is True


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"quote": "below 15 per month"}, "occurs in no evidence"),
        ({"quote": "to below 10 per month by March 2027"}, "exactly one number"),
        ({"quote": "below 10 per month", "chunk_id": "c0"}, "does not occur in chunk c0"),
        ({"quote": "below 10 per month", "chunk_id": "nope"}, "not in the evidence"),
        ({"quote": "below 10 per month", "comparison": "<>"}, "comparison must be"),
        ({"quote": "  "}, "quote the text"),
    ],
)
def test_check_threshold_refuses_thresholds_not_in_the_evidence(
    kwargs: dict[str, str], message: str
) -> None:
    args = {"value": 23.0, "comparison": "<", **kwargs}
    with pytest.raises(ToolError, match=message):
        ToolBox(bundle("unrelated text", TEXT)).check_threshold(**args)  # type: ignore[arg-type]


def test_check_threshold_falls_back_to_the_corpus_lookup() -> None:
    asked: list[str] = []

    def lookup(query: str) -> list[tuple[str, str]]:
        asked.append(query)
        return [("corpus-1", TEXT)]

    r = ToolBox(bundle("unrelated"), lookup).check_threshold(12, "<=", "below 10 per month", "oap")
    assert r["chunk_id"] == "corpus-1" and r["passes"] is False
    assert asked == ["oap"]


def test_run_records_every_call_good_or_bad() -> None:
    tools = ToolBox(bundle(TEXT))
    good = tools.run(SumNumbers(tool="sum_numbers", values=[1, 2]))
    bad = tools.run(Calculate(tool="calculate", expression="__import__('os')"))
    assert good.result["sum"] == 3 and good.error is None
    assert bad.error and bad.result == {}
    assert [r.name for r in tools.records] == ["sum_numbers", "calculate"]


def test_tool_requests_parse_from_the_schema_shape() -> None:
    adapter: TypeAdapter[ToolRequest] = TypeAdapter(ToolRequest)
    call = adapter.validate_python({"tool": "compare_numbers", "a": 3, "b": 2})
    assert ToolBox(bundle(TEXT)).run(call).result["difference"] == 1
    with pytest.raises(ValidationError):
        adapter.validate_python({"tool": "delete_everything"})
    assert sorted(TOOL_NAMES) == [
        "calculate",
        "check_threshold",
        "compare_numbers",
        "detect_patterns",
        "extract_numbers",
        "find_convenient_sums",
        "sum_numbers",
    ]
