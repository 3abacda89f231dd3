"""Numerical tools the LLM calls instead of doing arithmetic in its head.

``calculate`` evaluates arithmetic by walking the parsed AST (numbers, + - * / // % **, unary
signs, abs/min/max/round); nothing is ever passed to ``eval``. ``check_threshold`` never holds a
threshold: the model quotes the text that states it, the tool finds that quote in a chunk of the
evidence (or of the corpus) and reads the number from it, so every threshold is traceable to a
chunk id. Every call, good or failed, becomes a ``ToolRecord``.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

from agents.llm import ToolCall
from agents.models import EvidenceBundle, ToolRecord

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
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
}

ChunkLookup = Callable[[str], Sequence[tuple[str, str]]]  # query -> [(chunk id, text)]


class ToolError(ValueError):
    """A tool was called with arguments it cannot use; the message goes back to the model."""


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


def sum_numbers(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        raise ToolError("no values to add")
    total = math.fsum(values)
    return {"sum": total, "count": len(values), "mean": total / len(values)}


def numbers_in(text: str) -> list[float]:
    return [float(m.group().replace(",", "")) for m in _NUMBER.finditer(text)]


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


class ToolBox:
    """The tools bound to one run's evidence (and, for thresholds, the corpus)."""

    def __init__(self, evidence: EvidenceBundle, lookup: ChunkLookup | None = None) -> None:
        self._chunks = {i.chunk_id: i.text for i in evidence.items}
        self._lookup = lookup
        self.records: list[ToolRecord] = []

    def check_threshold(
        self,
        value: float,
        comparison: str,
        quote: str,
        metric: str = "",
        chunk_id: str | None = None,
    ) -> dict[str, Any]:
        if comparison not in _COMPARE:
            raise ToolError(f"comparison must be one of {', '.join(_COMPARE)}")
        if not quote.strip():
            raise ToolError("quote the text that states the threshold")
        source = self._find(quote, chunk_id, metric)
        numbers = numbers_in(quote)
        if len(numbers) != 1:
            raise ToolError(
                f"the quote must contain exactly one number, it has {len(numbers)}: "
                "quote only the words that state the threshold"
            )
        threshold = numbers[0]
        return {
            "metric": metric,
            "value": value,
            "comparison": comparison,
            "threshold": threshold,
            "passes": _COMPARE[comparison](value, threshold),
            "chunk_id": source,
            "quote": quote,
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

    # --- function-calling surface ------------------------------------------
    def run(self, call: ToolCall) -> ToolRecord:
        try:
            args = call.parsed_arguments()
        except ValueError as exc:
            record = ToolRecord(name=call.name, error=f"arguments are not JSON: {exc}")
        else:
            record = ToolRecord(name=call.name, arguments=args)
            try:
                record.result = self._dispatch(call.name, args)
            except ToolError as exc:
                record.error = str(exc)
            except (TypeError, ValueError, KeyError) as exc:
                record.error = f"bad arguments: {exc}"
        self.records.append(record)
        return record

    def _dispatch(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name == "calculate":
            return {"expression": args["expression"], "result": calculate(str(args["expression"]))}
        if name == "compare_numbers":
            return compare_numbers(float(args["a"]), float(args["b"]))
        if name == "sum_numbers":
            return sum_numbers([float(v) for v in args["values"]])
        if name == "check_threshold":
            return self.check_threshold(
                float(args["value"]),
                str(args["comparison"]),
                str(args["quote"]),
                str(args.get("metric", "")),
                args.get("chunk_id"),
            )
        raise ToolError(f"unknown tool {name!r}")

    @staticmethod
    def message(call: ToolCall, record: ToolRecord) -> dict[str, Any]:
        """The ``tool`` message that answers one call."""
        body = {"error": record.error} if record.error else record.result
        return {"role": "tool", "tool_call_id": call.id, "content": json.dumps(body)}


def _fn(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


_NUM = {"type": "number"}
SPECS: list[dict[str, Any]] = [
    _fn(
        "calculate",
        "Evaluate an arithmetic expression (+ - * / // % **, parentheses, abs/min/max/round). "
        "Write numbers plainly (1350, not 1,350).",
        {"expression": {"type": "string"}},
        ["expression"],
    ),
    _fn(
        "compare_numbers",
        "Compare two numbers: difference a-b, ratio a/b, percent change from b, which is larger.",
        {"a": _NUM, "b": _NUM},
        ["a", "b"],
    ),
    _fn(
        "sum_numbers",
        "Add numbers; returns sum, count and mean.",
        {"values": {"type": "array", "items": _NUM}},
        ["values"],
    ),
    _fn(
        "check_threshold",
        "Check a value against a threshold stated in the evidence. Quote verbatim the words "
        "stating the threshold (exactly one number); the tool reads the threshold from that "
        "quote in the cited chunk.",
        {
            "value": _NUM,
            "comparison": {"type": "string", "enum": list(_COMPARE)},
            "quote": {"type": "string"},
            "metric": {"type": "string"},
            "chunk_id": {"type": "string"},
        },
        ["value", "comparison", "quote"],
    ),
]
