"""``python -m bench.reliability.run``: crash, load, fuzz and injection figures in one table,
written to ``bench/results/reliability.json`` (``make reliability``)."""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from api.app import create_app
from api.config import ApiSettings
from bench.reliability import crash, fuzz, injection, load
from bench.reliability.digest import graph_digest
from kg.container import build
from kg.settings import Settings
from tests.integration.api.live import live_server

ROOT = Path(__file__).resolve().parents[2]


def _args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--passages", type=int, default=300, help="MuSiQue passages for crash/load")
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--per-client", type=int, default=200)
    p.add_argument("--fuzz", type=int, default=1000)
    p.add_argument("--seed", type=int, default=10)
    p.add_argument("--skip", default="", help="comma-separated: crash,load,fuzz,injection")
    p.add_argument("--out", type=Path, default=ROOT / "bench/results/reliability.json")
    return p.parse_args()


def _server_checks(args: argparse.Namespace, work: Path, skip: set[str]) -> dict[str, Any]:
    """Load, fuzz and API injection against one server on a store of the demo corpus."""
    roots = work / "roots"
    slice_file = crash.write_slice(crash.MUSIQUE, args.passages, roots)
    settings = Settings(data_dir=work / "server", api=ApiSettings(ingest_roots=[roots]))
    c = build(settings)
    c.store.open()
    c.store.init_schema()
    c.ingestor().ingest_paths([ROOT / "demo"])
    out: dict[str, Any] = {}
    app = create_app(settings, container=c)
    try:
        with live_server(app) as url, httpx.Client(base_url=url, timeout=300) as client:
            if "injection" not in skip:
                before = graph_digest(c.store)
                got = injection.run_api(client)
                out |= {
                    "injection_cases": got.cases,
                    "injection_effects": int(graph_digest(c.store) != before),
                    "injection_5xx": len(got.server_errors),
                    "injection_5xx_examples": got.server_errors[:10],
                }
            if "fuzz" not in skip:
                out |= fuzz.run(url, app.openapi(), args.fuzz, args.seed).as_dict()
            if "load" not in skip:
                result = load.run(url, [slice_file.name], args.clients, args.per_client, args.seed)
                out |= result.as_dict()
    finally:
        c.store.close()
    return out


def _cli_injection(work: Path) -> dict[str, Any]:
    data = work / "cli" / "kg"
    c = build(Settings(data_dir=data))
    with c.store:
        c.store.init_schema()
        c.ingestor().ingest_paths([ROOT / "demo"])
        before = graph_digest(c.store)
    crashes = 0
    commands = list(injection.cli_commands(injection.PAYLOADS))
    for args in commands:
        crashes += injection.crashed(injection.run_cli(data, args))
    with c.store:
        changed = graph_digest(c.store) != before
    return {
        "cli_injection_cases": len(commands),
        "cli_crashes": crashes,
        "cli_effects": int(changed),
    }


def main() -> None:
    args = _args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    started = time.perf_counter()
    figures: dict[str, Any] = {"seed": args.seed, "passages": args.passages}
    with tempfile.TemporaryDirectory(prefix="kg-reliability-") as tmp:
        work = Path(tmp)
        if "crash" not in skip:
            got = crash.run(work / "crash", args.passages, args.kills, args.seed)
            figures |= {
                "crash_identical": got.identical,
                "crash_runs": len(got.runs),
                "crash_after_commit": sum(1 for r in got.runs if r["documents_at_kill"] > 0),
                "crash_salvaged": sum(1 for r in got.runs if r["salvaged"]),
                "crash_clean_seconds": round(got.clean_seconds, 1),
                "crash_details": got.runs,
            }
        figures |= _server_checks(args, work, skip)
        if "injection" not in skip:
            figures |= _cli_injection(work)
            figures["injection_cases"] = figures.get("injection_cases", 0) + figures.pop(
                "cli_injection_cases"
            )
            figures["injection_effects"] = figures.get("injection_effects", 0) + figures.pop(
                "cli_effects"
            )
    figures["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    _table(figures, args.out)


def _table(figures: dict[str, Any], out: Path) -> None:
    rows = [
        ("crash: identical / runs", "crash_identical", "crash_runs"),
        ("crash: after a commit / salvaged", "crash_after_commit", "crash_salvaged"),
        ("load: errors / requests", "load_errors", "load_requests"),
        ("load: p50 / p95 ms", "load_p50_ms", "load_p95_ms"),
        ("fuzz: 5xx / requests", "fuzz_5xx", "fuzz_requests"),
        ("fuzz: undocumented status", "fuzz_undocumented_status", None),
        ("injection: effects / cases", "injection_effects", "injection_cases"),
        ("injection: 5xx / CLI crashes", "injection_5xx", "cli_crashes"),
    ]
    print(f"\n| {'check':<30} | {'figure':>16} |\n|{'-' * 32}|{'-' * 18}|")
    for label, a, b in rows:
        if a not in figures:
            continue
        value = str(figures[a]) if b is None else f"{figures[a]} / {figures.get(b, '-')}"
        print(f"| {label:<30} | {value:>16} |")
    print(f"\n{figures['seconds']:.0f}s in all; written to {out}")


if __name__ == "__main__":
    main()
