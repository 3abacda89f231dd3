"""``kg bench analyst``: the analyst question set over the demo corpus, answered by ``kg ask``.

Each question (bench/questions/analyst.json) carries key points (short strings a correct answer
contains), gold documents (titles; citing any one of them counts), expected numbers and an
``answerable`` flag. Scores per answer:

- key-point recall: the share of key points the answer contains (case and spacing aside; a key
  point that is one number also matches the same value written another way, "£2.87bn" for
  "£2,870m");
- gold cited: a cited chunk comes from a gold document;
- numbers right: the share of expected numbers whose value the answer states;
- for a question the corpus cannot answer: answered as not found (the answer says so, or its
  confidence is LOW), and a *confident claim* when neither holds.

The store is the demo folder ingested by the rules alone into
``<work dir>/analyst-demo-<key>``, the key naming the folder's path and contents (``demo_key``),
so a second run of the same checkout reuses it and another checkout or an edited demo gets
its own.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.environment import describe
from bench.metrics import mean
from bench.qa import rules_built
from core.errors import ConfigError, InputError
from extraction.numbers import extract_numbers
from kg.settings import Settings

if TYPE_CHECKING:
    from agents.models import AgenticResult

ProgressHook = Callable[[str, int, int], None]
ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "bench" / "questions" / "analyst.json"
DEMO = ROOT / "demo"
# What an answer that found nothing says: "not found", "no evidence", "does not say", ...
_NOT_FOUND = re.compile(
    r"\b(not found|no evidence|no information|cannot be answered|could not find|"
    r"does not (say|state|mention|give)|do not (say|state|mention|give)|not (stated|given|"
    r"mentioned) in|nothing in the (evidence|documents))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class AnalystQuestion:
    id: str
    kind: str
    text: str
    key_points: tuple[str, ...]
    gold_documents: tuple[str, ...]
    expected_numbers: tuple[str, ...]
    answerable: bool


def demo_key(folder: Path) -> str:
    """The bench store's name for the demo at ``folder``: its absolute path and every file's
    bytes. Documents are identified by their path, so one store reused from another checkout
    would hold the demo twice (one copy per path) and answer from duplicates; a changed or
    deleted file would linger. A new key builds a fresh store instead."""
    digest = hashlib.sha256(str(folder.resolve()).encode())
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def read_questions(path: Path = QUESTIONS) -> list[AnalystQuestion]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [
            AnalystQuestion(
                id=str(q["id"]),
                kind=str(q["kind"]),
                text=str(q["question"]),
                key_points=tuple(q["key_points"]),
                gold_documents=tuple(q["gold_documents"]),
                expected_numbers=tuple(q["expected_numbers"]),
                answerable=bool(q["answerable"]),
            )
            for q in data["questions"]
        ]
    except FileNotFoundError as exc:
        raise InputError(str(path), "no such file") from exc
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(str(path), f"not an analyst question set: {exc}") from exc


def _squash(text: str) -> str:
    return " ".join(text.replace("’", "'").split()).lower()


def _values(text: str) -> set[float]:
    return {round(n.value, 2) for n in extract_numbers(text)}


def has_point(answer: str, point: str) -> bool:
    if _squash(point) in _squash(answer):
        return True
    wanted = extract_numbers(point)
    return len(wanted) == 1 and round(wanted[0].value, 2) in _values(answer)


def states_not_found(answer: str) -> bool:
    return bool(_NOT_FOUND.search(answer))


def score(
    q: AnalystQuestion, answer: str, cited_titles: Sequence[str], confidence: str
) -> dict[str, Any]:
    """The measures of one answer (None where a measure does not apply to the question)."""
    titles = {_squash(t) for t in cited_titles}
    gold = {_squash(t) for t in q.gold_documents}
    found = [p for p in q.key_points if has_point(answer, p)]
    said = _values(answer)
    numbers = [n for n in q.expected_numbers if _values(n) and _values(n) <= said]
    not_found = states_not_found(answer)
    return {
        "key_points": len(found) / len(q.key_points) if q.key_points else None,
        "missing_points": [p for p in q.key_points if p not in found],
        "gold_cited": bool(titles & gold) if gold else None,
        "numbers": len(numbers) / len(q.expected_numbers) if q.expected_numbers else None,
        "not_found": None if q.answerable else (not_found or confidence == "LOW"),
        "confident_claim": None if q.answerable else (not not_found and confidence != "LOW"),
    }


def _rate(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [float(r[key]) for r in rows if r[key] is not None]
    return round(mean(values), 4) if values else None


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = sorted({r["kind"] for r in rows})
    return {
        "questions": len(rows),
        "key_points": _rate(rows, "key_points"),
        "gold_cited": _rate(rows, "gold_cited"),
        "numbers": _rate(rows, "numbers"),
        "not_found": _rate(rows, "not_found"),
        "confident_unanswerable": sum(1 for r in rows if r["confident_claim"]),
        "seconds_per_question": round(mean([r["seconds"] for r in rows]), 3),
        "by_kind": {
            k: {
                "questions": sum(1 for r in rows if r["kind"] == k),
                "key_points": _rate([r for r in rows if r["kind"] == k], "key_points"),
                "gold_cited": _rate([r for r in rows if r["kind"] == k], "gold_cited"),
            }
            for k in kinds
        },
    }


def answer_row(q: AnalystQuestion, result: AgenticResult, seconds: float) -> dict[str, Any]:
    titles = [c.document_title for c in result.citations]
    return {
        "id": q.id,
        "kind": q.kind,
        "question": q.text,
        "answerable": q.answerable,
        "answer": result.answer,
        "confidence": result.confidence,
        "cited_documents": sorted(set(titles)),
        "tool_calls": len(result.tool_calls),
        "seconds": round(seconds, 3),
        **score(q, result.answer, titles, result.confidence),
    }


def run(
    settings: Settings,
    *,
    questions_path: Path = QUESTIONS,
    work_dir: Path | None = None,
    with_llm: bool = False,
    limit: int | None = None,
    progress: ProgressHook | None = None,
    ids: Sequence[str] = (),
    answerers: Sequence[str] = (),
) -> dict[str, Any]:
    """Every question offline and, when ``with_llm``, with the configured LLM: once per name
    in ``answerers`` (mode ``llm-<name>``), else with the configured answerer (mode ``llm``).
    ``ids``: only those questions. All modes in one run, on one store."""
    from agents.orchestrator import answer
    from kg.container import build
    from llm.openai_compat import build_llm

    questions = read_questions(questions_path)
    if ids:
        unknown = set(ids) - {q.id for q in questions}
        if unknown:
            raise ConfigError(f"no analyst question with id {', '.join(sorted(unknown))}")
        questions = [q for q in questions if q.id in set(ids)]
    questions = questions[:limit]
    known = ("synthesis", "reader", "report")
    if any(a not in known for a in answerers):
        raise ConfigError(f"unknown answerer in {list(answerers)}; choose from {known}")
    llm = build_llm(settings.llm) if with_llm else None
    if with_llm and llm is None:
        raise ConfigError("--llm needs KG_LLM__BASE_URL and KG_LLM__MODEL")
    directory = (work_dir or settings.data_dir / "bench") / f"analyst-demo-{demo_key(DEMO)}"
    local = rules_built(settings).model_copy(update={"data_dir": directory, "store": "embedded"})
    container = build(local)
    container.store.open()
    try:
        container.store.init_schema()
        report = container.ingestor().ingest_paths([DEMO])
        modes: dict[str, list[dict[str, Any]]] = {"offline": []}
        configs = {"offline": container.settings.agent}
        if llm is not None:
            for name in answerers or [""]:
                mode = f"llm-{name}" if name else "llm"
                modes[mode] = []
                update = {"llm_answerer": name} if name else {}
                configs[mode] = container.settings.agent.model_copy(update=update)
        container.searcher()  # built once, outside the timed questions
        total = len(questions) * len(modes)
        for mode, rows in modes.items():
            for q in questions:
                t0 = time.perf_counter()
                result = answer(
                    container,
                    q.text,
                    llm=llm if mode != "offline" else None,
                    settings=configs[mode],
                )
                rows.append(answer_row(q, result, time.perf_counter() - t0))
                if progress:
                    progress("questions", sum(len(r) for r in modes.values()), total)
        env = describe(container)
    finally:
        container.store.close()
    return {
        "dataset": "analyst-demo",
        "model": llm.model if llm else None,
        "store": {"path": str(directory), "reused": report.written == 0},
        "summary": {mode: summarise(rows) for mode, rows in modes.items()},
        "questions": modes,
        "environment": env,
    }


def table_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    modes = list(result["summary"])

    def cell(value: float | int | None) -> str:
        return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)

    names = [
        ("key-point recall", "key_points"),
        ("gold document cited", "gold_cited"),
        ("numbers right", "numbers"),
        ("unanswerable answered as not found", "not_found"),
        ("confident answers to unanswerable", "confident_unanswerable"),
        ("seconds / question", "seconds_per_question"),
    ]
    rows = [[label, *(cell(result["summary"][m][key]) for m in modes)] for label, key in names]
    for kind in result["summary"][modes[0]]["by_kind"]:
        rows.append(
            [
                f"key points, {kind}",
                *(cell(result["summary"][m]["by_kind"][kind]["key_points"]) for m in modes),
            ]
        )
    return ["measure", *modes], rows


__all__ = ["AnalystQuestion", "read_questions", "run", "score", "summarise", "table_rows"]
