"""The answer benchmark behind ``kg bench qa``: ``kg ask``'s agent loop on a question set.

For each question the full offline loop runs (plan → evidence → critique → synthesis → verify;
``bench.qa_pair`` runs it with the LLM configured by ``KG_LLM__*`` beside it); the result
holds every answer with its confidence and scores, and a summary: EM and F1 (SQuAD), answer
recall, calibration (answers right per confidence level) and seconds per question. The store
is the same cached bench store ``kg bench multihop`` uses (``bench.store``).
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.answer_metrics import calibration, score_answer
from bench.environment import describe
from bench.metrics import mean
from bench.multihop import dataset_name
from bench.store import bench_store
from core.errors import ConfigError, InputError
from kg.settings import Settings

if TYPE_CHECKING:
    from agents.models import AgenticResult

ProgressHook = Callable[[str, int, int], None]


@dataclass(frozen=True)
class GoldQuestion:
    id: str
    text: str
    answers: tuple[str, ...]  # the gold answer first, then its aliases


@dataclass(frozen=True)
class QaConfig:
    corpus: Path
    questions: Path
    limit: int | None = None
    work_dir: Path | None = None
    name: str = ""


def read_gold_answers(path: Path) -> list[GoldQuestion]:
    """Questions with ``answer`` (HotpotQA, 2Wiki, MuSiQue) and optional ``answer_aliases``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError as exc:
        raise InputError(str(path), "no such file") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(str(path), f"cannot read questions: {exc}") from exc
    if not isinstance(data, list):
        raise InputError(str(path), "expected a JSON list of questions")
    out: list[GoldQuestion] = []
    for n, row in enumerate(data):
        if not isinstance(row, dict) or not isinstance(row.get("question"), str):
            raise InputError(str(path), f"question {n} has no 'question' text")
        answer = row.get("answer")
        # One answer (HotpotQA, MuSiQue) or a list of them (the sample set).
        given = answer if isinstance(answer, list) else [answer]
        aliases = row.get("answer_aliases") or []
        names = [a for a in [*given, *aliases] if isinstance(a, str) and a.strip()]
        if not any(isinstance(a, str) and a.strip() for a in given):
            continue  # unanswerable or answer-less rows cannot be scored
        qid = str(row.get("id") or row.get("_id") or n)
        out.append(GoldQuestion(qid, row["question"], tuple(dict.fromkeys(names))))
    return out


def gold_questions(config: QaConfig) -> list[GoldQuestion]:
    """The questions ``config`` asks, within its limit; at least one."""
    questions = read_gold_answers(config.questions)[: config.limit]
    if not questions:
        raise ConfigError(f"{config.questions}: no question has a gold answer")
    return questions


def rules_built(settings: Settings) -> Settings:
    """Settings whose bench store is built by the rules alone: the benchmark measures answering,
    and with ``KG_LLM__*`` set an LLM-extracted store would be another store (and hours of
    extraction on a CPU)."""
    extraction = settings.extraction.model_copy(update={"llm_enabled": False})
    return settings.model_copy(update={"extraction": extraction})


def answer_row(q: GoldQuestion, result: AgenticResult, seconds: float) -> dict[str, Any]:
    """One answered question, scored."""
    scored = score_answer(result.answer, q.answers)
    return {
        "id": q.id,
        "question": q.text,
        "gold": list(q.answers),
        "answer": result.answer,
        "confidence": result.confidence,
        "reason": result.reason,
        "mode": result.mode,
        "citations": [c.chunk_id for c in result.citations],
        "em": scored.em,
        "f1": round(scored.f1, 4),
        "recall": scored.recall,
        "lead_em": scored.lead_em,
        "lead_f1": round(scored.lead_f1, 4),
        "words": scored.words,
        "seconds": round(seconds, 3),
    }


def run(
    config: QaConfig, settings: Settings, progress: ProgressHook | None = None
) -> dict[str, Any]:
    """The offline answers (``bench.qa_pair`` answers each question with the LLM as well)."""
    from agents.orchestrator import answer

    questions = gold_questions(config)
    rows: list[dict[str, Any]] = []
    with bench_store(config.corpus, rules_built(settings), config.work_dir, None, progress) as bs:
        container = bs.container
        container.searcher()  # built once, outside the timed questions
        for n, q in enumerate(questions):
            t0 = time.perf_counter()
            result = answer(container, q.text)
            rows.append(answer_row(q, result, time.perf_counter() - t0))
            if progress:
                progress("questions", n + 1, len(questions))
        env = describe(container)
        store_dir = str(bs.directory)
        reused = bs.reused
    return {
        "dataset": config.name or dataset_name(config.corpus),
        "mode": "offline",
        "model": None,
        "summary": summarise(rows),
        "questions": rows,
        "corpus": {"path": str(config.corpus), "store": store_dir, "store_reused": reused},
        "environment": env,
    }


def summarise(rows: list[dict[str, Any]], *, halves: bool = True) -> dict[str, Any]:
    """The measures over ``rows``; with ``halves``, also over each half of the question set
    in order (the first half is where the offline answer was developed, the second held out)."""
    out: dict[str, Any] = {
        "questions": len(rows),
        "em": round(mean([r["em"] for r in rows]), 4),
        "f1": round(mean([r["f1"] for r in rows]), 4),
        "lead_em": round(mean([r.get("lead_em", 0.0) for r in rows]), 4),
        "lead_f1": round(mean([r.get("lead_f1", 0.0) for r in rows]), 4),
        "answer_recall": round(mean([r["recall"] for r in rows]), 4),
        "mean_answer_words": round(mean([r.get("words", 0) for r in rows]), 1),
        "calibration": calibration((r["confidence"], r["recall"]) for r in rows),
        "seconds_per_question": round(mean([r["seconds"] for r in rows]), 3),
    }
    if halves and len(rows) >= 2:
        mid = (len(rows) + 1) // 2
        out["halves"] = {
            f"1-{mid}": summarise(rows[:mid], halves=False),
            f"{mid + 1}-{len(rows)}": summarise(rows[mid:], halves=False),
        }
        out["halves_gap"] = halves_gap(rows[:mid], rows[mid:])
    return out


def halves_gap(first: list[dict[str, Any]], second: list[dict[str, Any]]) -> dict[str, float]:
    """The first half's lead F1 less the second's, with the standard error of that difference
    (each half's sample variance over its size). With 50 questions a half and lead F1 mostly
    0 or 1 the error is 0.07-0.10, so a gap under about twice it is within what the choice
    of questions alone moves."""
    a = [r.get("lead_f1", 0.0) for r in first]
    b = [r.get("lead_f1", 0.0) for r in second]
    se = math.sqrt(sum(statistics.variance(x) / len(x) for x in (a, b) if len(x) > 1))
    return {"lead_f1": round(mean(a) - mean(b), 4), "lead_f1_se": round(se, 4)}


def table_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The printed summary: one row per measure, calibration as right / count per level."""
    s = result["summary"]
    rows = [
        ["EM", f"{s['em']:.3f}"],
        ["F1", f"{s['f1']:.3f}"],
        ["lead EM", f"{s['lead_em']:.3f}"],
        ["lead F1", f"{s['lead_f1']:.3f}"],
        ["answer recall", f"{s['answer_recall']:.3f}"],
        ["mean answer words", f"{s['mean_answer_words']:.1f}"],
    ]
    for name, half in s.get("halves", {}).items():
        rows.append([f"answer recall, questions {name}", f"{half['answer_recall']:.3f}"])
    gap = s.get("halves_gap")
    if gap:
        first, second = s["halves"]
        rows.append(
            [
                f"lead F1 {first} less {second}",
                f"{gap['lead_f1']:+.3f} (standard error {gap['lead_f1_se']:.3f})",
            ]
        )
    for level, entry in s["calibration"].items():
        rows.append(
            [f"{level} right", f"{entry['right']}/{entry['count']} ({entry['accuracy']:.0%})"]
        )
    rows.append(["seconds / question", f"{s['seconds_per_question']:.2f}"])
    return ["measure", "value"], rows
