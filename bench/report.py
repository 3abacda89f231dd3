"""Turn benchmark results into the combined JSON, the bar chart and the README tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.errors import InputError

DISPLAY = {"musique": "MuSiQue", "hotpotqa": "HotpotQA", "2wikimultihopqa": "2Wiki"}
METRICS = ("R@2", "R@5")


def emit(result: dict[str, Any], out: Path | None, indent: int = 2) -> None:
    """A bench module's result: printed as JSON, and written to ``out`` when given."""
    text = json.dumps(result, indent=indent)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
    print(text)


def combine(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One document for several datasets: ``summary`` per dataset, every full result kept."""
    datasets: dict[str, dict[str, Any]] = {}
    for n, result in enumerate(results):
        if not isinstance(result.get("summary"), dict):
            raise InputError(f"result {n}", "not a multihop result (no 'summary')")
        name = str(result.get("dataset") or f"dataset{n}")
        if name in datasets:
            raise InputError(name, "the same dataset appears twice")
        datasets[name] = result
    return {
        "summary": {name: r["summary"] for name, r in datasets.items()},
        "datasets": datasets,
    }


def summaries(document: dict[str, Any]) -> dict[str, dict[str, dict[str, float]]]:
    """``{dataset: {preset: metrics}}`` from a combined document or a single result."""
    if "datasets" in document:
        return {str(k): v["summary"] for k, v in document["datasets"].items()}
    if "summary" in document:
        return {str(document.get("dataset") or "dataset"): document["summary"]}
    raise InputError("multihop results", "neither 'datasets' nor 'summary' found")


def _presets(table: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    seen: dict[str, None] = {}
    for per_preset in table.values():
        seen.update(dict.fromkeys(per_preset))
    return list(seen)


def recall_rows(document: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the recall table (one row per preset, R@2/R@5 per dataset)."""
    table = summaries(document)
    header = ["preset"] + [f"{DISPLAY.get(d, d)} {m}" for d in table for m in METRICS]
    rows = []
    for preset in _presets(table):
        row = [preset]
        for dataset in table:
            metrics = table[dataset].get(preset, {})
            row.extend(f"{metrics[m]:.3f}" if m in metrics else "–" for m in METRICS)
        rows.append(row)
    return header, rows


def latency_rows(latency: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    header = ["preset", "p50 ms", "p95 ms", "p50 / dense", "p95 / dense"]
    ratios = latency.get("ratio_to_dense", {})
    rows = []
    for preset, s in latency["presets"].items():
        r = ratios.get(preset, {})
        rows.append(
            [
                preset,
                f"{s['p50_ms']:.1f}",
                f"{s['p95_ms']:.1f}",
                f"{r['p50']:.2f}" if "p50" in r else "–",
                f"{r['p95']:.2f}" if "p95" in r else "–",
            ]
        )
    return header, rows


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = [
        "| " + " | ".join(header) + " |",
        "|---|" + "---:|" * (len(header) - 1),
    ]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines)


def markdown(multihop: dict[str, Any] | None, latency: dict[str, Any] | None) -> str:
    """The README's results section body: recall table, then latency table with its setting."""
    parts = []
    if multihop is not None:
        parts.append(_markdown_table(*recall_rows(multihop)))
        counts = [
            f"{DISPLAY.get(name, name)}: {r['counts']['questions']} questions, "
            f"{r['corpus']['passages']:,} passages"
            for name, r in multihop.get("datasets", {}).items()
            if "counts" in r and "corpus" in r
        ]
        if counts:
            parts.append("Recall@k over passages (" + "; ".join(counts) + ").")
    if latency is not None:
        parts.append(_markdown_table(*latency_rows(latency)))
        q = latency.get("questions", {})
        corpus = latency.get("corpus", {})
        name = latency.get("dataset", "")
        parts.append(
            f"Retrieval latency per question, k={latency.get('k')}, warm, embedded store, "
            f"{DISPLAY.get(name, name)} corpus ({corpus.get('passages', 0):,} passages); "
            f"{q.get('timed')} timed questions after {q.get('warmup')} warm-up, "
            f"{q.get('source', '')}."
        )
    return "\n\n".join(parts) + "\n"


def chart(document: dict[str, Any], path: Path) -> None:
    """Bar chart of R@2 and R@5 per preset, one panel per dataset."""
    import matplotlib

    matplotlib.use("Agg")  # no display on servers and in CI
    import matplotlib.pyplot as plt

    table = summaries(document)
    presets = _presets(table)
    fig, axes = plt.subplots(
        1, len(table), figsize=(1.2 + 1.1 * len(presets) * len(table), 4.2), squeeze=False
    )
    width = 0.38
    for ax, (dataset, per_preset) in zip(axes[0], table.items(), strict=True):
        xs = range(len(presets))
        for j, metric in enumerate(METRICS):
            values = [per_preset.get(p, {}).get(metric, 0.0) for p in presets]
            bars = ax.bar([x + (j - 0.5) * width for x in xs], values, width, label=metric)
            ax.bar_label(bars, fmt="%.2f", fontsize=7, padding=1)
        ax.set_title(DISPLAY.get(dataset, dataset))
        ax.set_xticks(list(xs), presets, rotation=20)
        ax.set_ylim(0, 1.18)  # headroom for the value labels and the legend
        ax.set_ylabel("recall")
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(loc="upper left", ncol=len(METRICS), fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
