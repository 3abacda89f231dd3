"""Offline and LLM answers to the same questions in one run, for ``kg bench qa --llm``.

Each question is answered twice on the same open store, offline and with the LLM; which goes
first alternates from question to question, so that a busy machine slows both modes alike and
seconds per question compare. Besides each mode's summary (``bench.qa.summarise``) the result
says what held the LLM back: how many runs fell back to the extractive answer ("llm-failed"),
the verifier's verdicts, tokens per step, and the questions one mode got right and the other
did not. With ``answerers`` (``KG_AGENT__LLM_ANSWERER``'s choices: "reader", "report",
"synthesis") each question is answered offline and once by each of them, a mode (and column)
per answerer.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import TYPE_CHECKING, Any, get_args

from agents.config import AgentSettings
from bench.environment import describe
from bench.metrics import mean
from bench.multihop import dataset_name
from bench.qa import (
    GoldQuestion,
    ProgressHook,
    QaConfig,
    answer_row,
    gold_questions,
    rules_built,
    summarise,
)
from bench.store import bench_store
from core.errors import ConfigError
from kg.settings import Settings

if TYPE_CHECKING:
    from agents.models import AgenticResult

MODES = ("offline", "llm")
# The answerers KG_AGENT__LLM_ANSWERER can name, read from the setting itself.
ANSWERERS: tuple[str, ...] = get_args(AgentSettings.model_fields["llm_answerer"].annotation)


def run_pair(
    config: QaConfig,
    settings: Settings,
    progress: ProgressHook | None = None,
    answerers: tuple[str, ...] = (),
) -> dict[str, Any]:
    from agents.orchestrator import answer
    from llm.openai_compat import build_llm

    questions = gold_questions(config)
    llm = build_llm(settings.llm)
    if llm is None:
        raise ConfigError("--llm needs KG_LLM__BASE_URL and KG_LLM__MODEL")
    modes = modes_of(answerers)
    agents = {
        m: settings.agent.model_copy(update={"llm_answerer": m}) if answerers else None
        for m in modes[1:]
    }
    rows: dict[str, list[dict[str, Any]]] = {m: [] for m in modes}
    with bench_store(config.corpus, rules_built(settings), config.work_dir, None, progress) as bs:
        container = bs.container
        container.searcher()  # built once, outside the timed questions
        for n, q in enumerate(questions):
            # Each mode goes first in turn, so that a busy machine slows them alike.
            shift = n % len(modes)
            for mode in modes[shift:] + modes[:shift]:
                t0 = time.perf_counter()
                if mode == "offline":
                    result = answer(container, q.text)
                else:
                    result = answer(container, q.text, llm=llm, settings=agents[mode])
                rows[mode].append(_row(q, result, time.perf_counter() - t0))
            if progress:
                progress("questions", n + 1, len(questions))
        env = describe(container)
    return {
        "dataset": config.name or dataset_name(config.corpus),
        "mode": "+".join(modes) if answerers else "offline+llm",
        "model": llm.model,
        "modes": list(modes),
        "summary": {m: summarise(rows[m]) for m in modes},
        "llm_limits": _limits(rows["offline"], rows["llm"]) if not answerers else None,
        "limits": {m: _limits(rows["offline"], rows[m]) for m in modes[1:]},
        "questions": [
            dict(zip(modes, each, strict=True)) for each in zip(*rows.values(), strict=True)
        ],
        "environment": env,
    }


def modes_of(answerers: tuple[str, ...]) -> tuple[str, ...]:
    """The modes of a run: offline, then "llm" (the configured answerer) or each answerer."""
    for a in answerers:
        if a not in ANSWERERS:
            raise ConfigError(f"unknown answerer {a!r}: one of {', '.join(ANSWERERS)}")
    return ("offline", *(dict.fromkeys(answerers) or ("llm",)))


def _row(q: GoldQuestion, result: AgenticResult, seconds: float) -> dict[str, Any]:
    report = result.verifier
    return {
        **answer_row(q, result, seconds),
        "verified": None if report is None else report.passed,
        "problems": [] if report is None else report.problems(),
        "tokens": dict(result.tokens),
        "warnings": list(result.warnings),
    }


def _limits(offline: list[dict[str, Any]], llm: list[dict[str, Any]]) -> dict[str, Any]:
    steps: Counter[str] = Counter()
    for r in llm:
        steps.update(r["tokens"])
    pairs = list(zip(offline, llm, strict=True))
    return {
        "modes": dict(Counter(r["mode"] for r in llm)),
        "verified": dict(Counter(str(r["verified"]) for r in llm)),
        "tokens_per_question": {k: round(v / max(1, len(llm))) for k, v in steps.items()},
        "mean_words": {
            "offline": mean([r["words"] for r in offline]),
            "llm": mean([r["words"] for r in llm]),
        },
        "only_offline_right": [o["id"] for o, m in pairs if o["recall"] > m["recall"]],
        "only_llm_right": [o["id"] for o, m in pairs if m["recall"] > o["recall"]],
    }


def table_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The printed summary: one row per measure, a column per mode."""
    s = result["summary"]
    modes = result.get("modes", MODES)
    rows = [
        [name, *(f"{s[m][key]:.3f}" for m in modes)]
        for name, key in (
            ("EM", "em"),
            ("F1", "f1"),
            ("lead EM", "lead_em"),
            ("lead F1", "lead_f1"),
            ("answer recall", "answer_recall"),
        )
    ]
    for level in ("HIGH", "MEDIUM", "LOW"):
        cells = []
        for m in modes:
            e = s[m]["calibration"].get(level, {"right": 0, "count": 0})
            cells.append(f"{e['right']}/{e['count']}")
        rows.append([f"{level} right", *cells])
    rows.append(["mean answer words", *(f"{s[m]['mean_answer_words']:.0f}" for m in modes)])
    rows.append(["seconds / question", *(f"{s[m]['seconds_per_question']:.1f}" for m in modes)])
    return ["measure", *modes], rows
