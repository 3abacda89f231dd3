"""Both stores side by side: the results of ``kg bench multihop`` / ``latency --store ...`` and
``python -m bench.rss`` on each store, gathered into one JSON with a markdown table.

    python -m bench.stores_report --multihop M1.json M2.json ... --latency L1.json L2.json \
        [--rss R1.json R2.json] [--add KEY=FILE.json ...] --out bench/results/stores.json

``--add`` files (other measurements of the same session, each a JSON object) go in as they are,
under their key.

Each input names its own store (``corpus.store_kind`` / ``store``); recall differences are
Neo4j minus embedded per dataset and preset. Numbers are copied, never recomputed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def _load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: not a JSON object")
    return data


def _ingest(result: dict[str, Any]) -> dict[str, Any] | None:
    """The ingest of a run that built its store; a reused store's marker holds an older
    build's time, under other conditions (possibly a resumed one), which is not this run's."""
    corpus = result["corpus"]
    seconds = float(corpus.get("ingest_s") or 0.0)
    if not seconds or corpus.get("store_reused"):
        return None
    return {
        "passages": corpus["passages"],
        "seconds": seconds,
        "passages_per_s": round(corpus["passages"] / seconds, 2),
    }


def gather(
    multihop: list[dict[str, Any]], latency: list[dict[str, Any]], rss: list[dict[str, Any]]
) -> dict[str, Any]:
    recall: dict[str, dict[str, Any]] = {}
    ingest: dict[str, dict[str, Any]] = {}
    for r in multihop:
        kind = r["corpus"].get("store_kind", "embedded")
        recall.setdefault(r["dataset"], {})[kind] = {
            "summary": r["summary"],
            "questions": r["counts"]["questions"],
            "mean_ms": {p: t["mean_ms"] for p, t in r["timings"]["per_preset"].items()},
            "store": r["counts"]["store"],
            "store_reused": r["corpus"]["store_reused"],
            "measured_at": r["environment"]["measured_at"],
            "git_commit": r["environment"]["git_commit"],
        }
        got = _ingest(r)
        if got is not None:
            ingest.setdefault(r["dataset"], {})[kind] = got
    for sets in recall.values():
        if {"embedded", "neo4j"} <= sets.keys():
            emb, neo = sets["embedded"]["summary"], sets["neo4j"]["summary"]
            sets["neo4j_minus_embedded"] = {
                p: {m: round(neo[p][m] - emb[p][m], 4) for m in ("R@2", "R@5")}
                for p in emb
                if p in neo
            }
    lat: dict[str, dict[str, Any]] = {}
    for r in latency:
        kind = r["corpus"].get("store_kind", "embedded")
        lat.setdefault(r["dataset"], {})[kind] = {
            "presets": r["presets"],
            "ratio_to_dense": r["ratio_to_dense"],
            "questions": r["questions"],
            "store": r["counts"]["store"],
            "measured_at": r["environment"]["measured_at"],
            "git_commit": r["environment"]["git_commit"],
        }
        got = _ingest(r)
        if got is not None:
            ingest.setdefault(r["dataset"], {})[kind] = got
    return {
        "multihop": recall,
        "latency": lat,
        "ingest": ingest,
        "rss": {r.get("store", "?"): r for r in rss},
        "environment": (multihop or latency)[0]["environment"] if multihop or latency else {},
    }


def markdown(doc: dict[str, Any]) -> str:
    lines = ["| set | preset | store | R@2 | R@5 |", "|---|---|---|---:|---:|"]
    for name, sets in doc["multihop"].items():
        for kind in ("embedded", "neo4j"):
            for preset, m in sets.get(kind, {}).get("summary", {}).items():
                lines.append(f"| {name} | {preset} | {kind} | {m['R@2']:.3f} | {m['R@5']:.3f} |")
    lines += ["", "| corpus | store | preset | p50 ms | p95 ms | p50 / dense | p95 / dense |"]
    lines.append("|---|---|---|---:|---:|---:|---:|")
    for name, stores in doc["latency"].items():
        for kind, r in stores.items():
            for preset, s in r["presets"].items():
                ratio = r["ratio_to_dense"].get(preset, {})
                lines.append(
                    f"| {name} | {kind} | {preset} | {s['p50_ms']:.1f} | {s['p95_ms']:.1f} | "
                    f"{ratio.get('p50', '')} | {ratio.get('p95', '')} |"
                )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--multihop", type=Path, nargs="*", default=[])
    parser.add_argument("--latency", type=Path, nargs="*", default=[])
    parser.add_argument("--rss", type=Path, nargs="*", default=[])
    parser.add_argument("--add", nargs="*", default=[], metavar="KEY=FILE")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    doc = gather(
        [_load(p) for p in args.multihop],
        [_load(p) for p in args.latency],
        [_load(p) for p in args.rss],
    )
    for item in args.add:
        key, sep, path = item.partition("=")
        if not sep:
            raise SystemExit(f"--add {item}: give KEY=FILE")
        doc[key] = _load(Path(path))
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(markdown(doc), end="")


if __name__ == "__main__":
    main()
