"""Numerical tools the LLM calls instead of doing arithmetic in its head.

``calculate`` evaluates arithmetic by walking the parsed AST (numbers, + - * / // % **, unary
signs, abs/min/max/round); nothing is ever passed to ``eval``. ``check_threshold`` never holds a
threshold: the model quotes the text that states it, the tool finds that quote in a chunk of the
evidence (or of the corpus) and reads the number from it, or the model names the limit and the
tool reads it from the threshold catalogue (``numeric_catalogue``); either way every threshold
is traceable to a chunk id. ``sum_numbers``, ``extract_numbers``, ``find_convenient_sums`` and
``detect_patterns`` are ``agents.numeric``'s. Every call, good or failed, becomes a ``ToolRecord``.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from agents.models import EvidenceBundle, ToolRecord
from agents.numeric import (
    MAX_SUBSET_VALUES,
    NumericError,
    assess_threshold,
    detect_patterns,
    find_convenient_sums,
    sum_numbers,
)
from agents.numeric_catalogue import LIMIT_KINDS, FactSource, find_limit
from extraction.numbers import Direction, direction_of, extract_numbers

# Guards against denial of service through the expression, not domain thresholds.
MAX_EXPRESSION_CHARS = 500
MAX_EXPONENT = 64

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?")
_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {"abs": abs, "min": min, "max": max, "round": round}
# A value must stay below (or at) a maximum and above (or at) a minimum.
_DIRECTION: dict[str, Direction] = {"<": "max", "<=": "max", ">": "min", ">=": "min", "==": "exact"}
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
}

ChunkLookup = Callable[[str], Sequence[tuple[str, str]]]  # query -> [(chunk id, text)]


# A tool was called with arguments it cannot use; the message goes back to the model.
ToolError = NumericError


def calculate(expression: str) -> float:
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise ToolError("expression too long")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as exc:
        raise ToolError(f"not an arithmetic expression: {exc.msg}") from exc
    value = _eval(tree.body)
    if not math.isfinite(value):
        raise ToolError("the result is not a finite number")
    return value


def _eval(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if isinstance(node.value, bool):
            raise ToolError("booleans are not numbers")
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        value = _eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
            raise ToolError("exponent too large")
        try:
            return float(_BINARY[type(node.op)](left, right))
        except (ZeroDivisionError, OverflowError) as exc:
            raise ToolError(str(exc)) from exc
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
    ):
        return float(_FUNCTIONS[node.func.id](*(_eval(a) for a in node.args)))
    raise ToolError(f"unsupported element in expression: {type(node).__name__}")


def compare_numbers(a: float, b: float) -> dict[str, Any]:
    return {
        "a": a,
        "b": b,
        "difference": a - b,
        "ratio": a / b if b else None,
        "percent_change_from_b": (a - b) / abs(b) * 100 if b else None,
        "larger": "a" if a > b else "b" if b > a else "equal",
    }


def numbers_in(text: str) -> list[float]:
    return [float(m.group().replace(",", "")) for m in _NUMBER.finditer(text)]


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


class ToolBox:
    """The tools bound to one run's evidence (and, for thresholds, the corpus and its
    threshold catalogue: the limits the graph's numeric facts state)."""

    def __init__(
        self,
        evidence: EvidenceBundle,
        lookup: ChunkLookup | None = None,
        facts: FactSource | None = None,
    ) -> None:
        self._chunks = {i.chunk_id: i.text for i in evidence.items}
        self._lookup = lookup
        self._facts = facts
        self.records: list[ToolRecord] = []

    def check_threshold(
        self,
        value: float,
        comparison: str | None = None,
        quote: str = "",
        metric: str = "",
        chunk_id: str | None = None,
    ) -> dict[str, Any]:
        """``value`` against a limit quoted from the evidence, or, without a quote, the
        catalogue's limit that ``metric`` names ("scheme total debt limit"). Whether the limit
        is a maximum or a minimum comes from ``comparison`` when given, else from the words
        that state it ("no more than", "at least")."""
        if comparison is not None and comparison not in _COMPARE:
            raise ToolError(f"comparison must be one of {', '.join(_COMPARE)}")
        if not quote.strip():
            return self._catalogue_threshold(value, comparison, metric)
        source = self._find(quote, chunk_id, metric)
        numbers = numbers_in(quote)
        if len(numbers) != 1:
            raise ToolError(
                f"the quote must contain exactly one number, it has {len(numbers)}: "
                "quote only the words that state the threshold"
            )
        threshold = numbers[0]
        unit = next((n.unit for n in extract_numbers(quote)), "")
        direction = _DIRECTION[comparison] if comparison else direction_of(quote)
        out = assess_threshold(value, threshold, direction, unit, metric)
        passes = _COMPARE[comparison](value, threshold) if comparison else out["passes"]
        return {
            **out,
            "metric": metric,
            "comparison": comparison,
            "threshold": threshold,
            "passes": passes,
            "chunk_id": source,
            "quote": quote,
        }

    def _catalogue_threshold(
        self, value: float, comparison: str | None, metric: str
    ) -> dict[str, Any]:
        if not metric.strip() or self._facts is None:
            raise ToolError("quote the text that states the threshold, or name its metric")
        hit = find_limit(self._facts(LIMIT_KINDS), metric)
        if hit is None:
            raise ToolError(f"no stated limit found for {metric!r}; quote it from the evidence")
        fact = hit.fact
        direction: Direction = "max" if fact.kind == "max" else "min"
        if comparison:
            direction = _DIRECTION[comparison]
        out = assess_threshold(value, fact.value, direction, fact.unit, fact.measure)
        return {
            **out,
            "metric": metric,
            "threshold": fact.value,
            "chunk_id": fact.chunk_id,
            "source": hit.doc_title,
            "quote": fact.text,
        }

    def _find(self, quote: str, chunk_id: str | None, metric: str) -> str:
        wanted = _squash(quote)
        if chunk_id is not None:
            text = self._chunks.get(chunk_id)
            if text is None and self._lookup is not None:
                text = dict(self._lookup(metric or quote)).get(chunk_id)
            if text is None:
                raise ToolError(f"chunk {chunk_id} is not in the evidence")
            if wanted not in _squash(text):
                raise ToolError(f"the quote does not occur in chunk {chunk_id}")
            return chunk_id
        for cid, text in self._chunks.items():
            if wanted in _squash(text):
                return cid
        for cid, text in self._lookup(metric or quote) if self._lookup else ():
            if wanted in _squash(text):
                return cid
        raise ToolError("the quote occurs in no evidence chunk; quote the evidence verbatim")

    # --- the schema-constrained surface -------------------------------------
    def run(self, call: ToolRequest) -> ToolRecord:
        """Run one requested call; a bad call becomes a record with its error, never raises."""
        args = call.model_dump(exclude={"tool"}, exclude_none=True)
        record = ToolRecord(name=call.tool, arguments=args)
        try:
            record.result = self._dispatch(call)
        except ToolError as exc:
            record.error = str(exc)
        except (TypeError, ValueError, KeyError) as exc:
            record.error = f"bad arguments: {exc}"
        self.records.append(record)
        return record

    def _dispatch(self, call: ToolRequest) -> dict[str, Any]:
        if isinstance(call, Calculate):
            return {"expression": call.expression, "result": calculate(call.expression)}
        if isinstance(call, CompareNumbers):
            return compare_numbers(call.a, call.b)
        if isinstance(call, SumNumbers):
            return sum_numbers(call.values, call.unit)
        if isinstance(call, ExtractNumbers):
            return {"numbers": [n.as_dict() for n in extract_numbers(call.text)]}
        if isinstance(call, FindConvenientSums):
            return find_convenient_sums(call.values, call.target, call.tolerance, call.unit)
        if isinstance(call, DetectPatterns):
            return detect_patterns(call.values, call.near_percent, call.unit)
        return self.check_threshold(
            call.value, call.comparison, call.quote, call.metric, call.chunk_id
        )


# The model cannot emit native tool calls through llama.cpp's server (they arrive as fenced
# JSON in the text), so synthesis names its calls inside its grammar-constrained reply, one of
# these shapes each; the descriptions travel in the JSON schema.
class Calculate(BaseModel):
    """Evaluate arithmetic (+ - * / // % **, parentheses, abs/min/max/round); 1350 not 1,350."""

    tool: Literal["calculate"]
    expression: str = Field(max_length=MAX_EXPRESSION_CHARS)


class CompareNumbers(BaseModel):
    """Compare a with b: difference a-b, ratio a/b, percent change from b, which is larger."""

    tool: Literal["compare_numbers"]
    a: float
    b: float


class SumNumbers(BaseModel):
    """Add numbers; gives sum, count, min, max and mean, also formatted in the unit."""

    tool: Literal["sum_numbers"]
    values: list[float] = Field(max_length=50)
    unit: str = Field(default="", max_length=10)


class ExtractNumbers(BaseModel):
    """List the numbers in a text with their values and units (£48.5m is 48500000 GBP)."""

    tool: Literal["extract_numbers"]
    text: str = Field(max_length=2000)


class FindConvenientSums(BaseModel):
    """Find groups of values that add up to target (or, without one, to a round number)
    within tolerance."""

    tool: Literal["find_convenient_sums"]
    values: list[float] = Field(max_length=MAX_SUBSET_VALUES)
    target: float | None = None
    tolerance: float = Field(default=0.0, ge=0.0)
    unit: str = Field(default="", max_length=10)


class DetectPatterns(BaseModel):
    """Find repeated values, values within near_percent of each other, and multiples."""

    tool: Literal["detect_patterns"]
    values: list[float] = Field(max_length=50)
    near_percent: float = Field(default=5.0, ge=0.0, le=100.0)
    unit: str = Field(default="", max_length=10)


class CheckThreshold(BaseModel):
    """Check a value against a limit: quote verbatim the words in the evidence that state it
    (exactly one number), or leave quote empty and name the limit in metric ("scheme total
    debt limit") to read it from the documents. Gives headroom, utilisation and a sentence."""

    tool: Literal["check_threshold"]
    value: float
    comparison: Literal["<", "<=", ">", ">=", "=="] | None = None
    quote: str = Field(default="", max_length=300)
    metric: str = Field(default="", max_length=100)
    chunk_id: str | None = Field(default=None, max_length=100)


ToolRequest = Annotated[
    Calculate
    | CompareNumbers
    | SumNumbers
    | ExtractNumbers
    | FindConvenientSums
    | DetectPatterns
    | CheckThreshold,
    Field(discriminator="tool"),
]
TOOL_NAMES = (
    "calculate",
    "compare_numbers",
    "sum_numbers",
    "extract_numbers",
    "find_convenient_sums",
    "detect_patterns",
    "check_threshold",
)
