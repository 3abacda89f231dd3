"""``python -m bench.reliability.run``: crash, load, fuzz and injection figures in one table,
written to ``bench/results/reliability.json`` (``make reliability``).

The embedded store first, then Neo4j (keys ``neo4j_*``, ``bench.reliability.neo4j``) on a
server this run starts under ``--neo4j-home`` on ``--neo4j-uri`` and stops at its end;
``--skip neo4j`` leaves Neo4j out (a machine without the jars of ``make neo4j-jars``)."""

from __future__ import annotations

import argparse
import json
import logging
import resource
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from api.app import create_app
from api.config import ApiSettings
from bench.reliability import crash, fuzz, injection, load, neo4j_injection
from bench.reliability.digest import graph_digest
from bench.reliability.neo4j import Neo4jBackend, api_outage, stop_mid_ingest
from kg.container import build
from kg.neo4j_server import JARS
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
    p.add_argument(
        "--musique",
        type=Path,
        default=crash.MUSIQUE,
        help="the MuSiQue corpus the load check's ingest streams (default: from /work/main)",
    )
    p.add_argument("--stream-passages", type=int, default=20, help="per ingest call under load")
    p.add_argument("--skip", default="", help="comma-separated: crash,load,fuzz,injection,neo4j")
    p.add_argument("--neo4j-uri", default="bolt://127.0.0.1:7689", help="the run's own server")
    p.add_argument("--neo4j-home", type=Path, default=ROOT / ".kg/reliability-neo4j")
    p.add_argument("--neo4j-jars", type=Path, default=JARS)
    p.add_argument("--neo4j-passages", type=int, default=40, help="MuSiQue passages on Neo4j")
    p.add_argument("--neo4j-kills", type=int, default=10)
    p.add_argument("--neo4j-batch", type=int, default=5, help="documents per write on Neo4j")
    p.add_argument("--out", type=Path, default=ROOT / "bench/results/reliability.json")
    p.add_argument(
        "--keep-from",
        type=Path,
        default=None,
        help="an earlier results file whose figures of the skipped checks are carried over "
        "(listed under carried_over)",
    )
    return p.parse_args()


def _server_checks(args: argparse.Namespace, work: Path, skip: set[str]) -> dict[str, Any]:
    """Load, fuzz and API injection against one server on a store of the demo corpus."""
    roots = work / "roots"
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
                stream = load.passage_stream(args.musique, 0, args.stream_passages, roots)
                result = load.run(url, stream, args.clients, args.per_client, args.seed)
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


def _neo4j_checks(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Crash, server stop, outage and injection on a Neo4j server of this run's own."""
    # The driver logs each retry while the server is away; the figures say what happened.
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    backend = Neo4jBackend(args.neo4j_uri, args.neo4j_home.resolve(), jars_dir=args.neo4j_jars)
    server = backend.server()
    was_running = server.status().running
    if not was_running:
        # The run's own server starts from an empty database, whatever an earlier run (or a
        # test pointed at this home) left in it.
        shutil.rmtree(backend.home / "data", ignore_errors=True)
    start = time.perf_counter()
    server.start()
    out: dict[str, Any] = {
        "neo4j_passages": args.neo4j_passages,
        "neo4j_batch_documents": args.neo4j_batch,
        "neo4j_server_start_seconds": round(time.perf_counter() - start, 1),
    }
    try:
        got = crash.run(
            work / "crash",
            args.neo4j_passages,
            args.neo4j_kills,
            args.seed,
            backend=backend,
            batch=args.neo4j_batch,
        )
        assert got.clean is not None
        out |= {
            "neo4j_crash_identical": got.identical,
            "neo4j_crash_runs": len(got.runs),
            "neo4j_crash_after_commit": sum(1 for r in got.runs if r["documents_at_kill"] > 0),
            "neo4j_crash_clean_seconds": round(got.clean_seconds, 1),
            "neo4j_crash_batches": got.batches,
            "neo4j_crash_clean_counts": got.clean.counts,
            "neo4j_crash_details": got.runs,
        }
        corpus = work / "crash" / "corpus" / f"musique_first_{args.neo4j_passages}.json"
        out |= stop_mid_ingest(backend, work, corpus, got.clean, args.neo4j_batch)
        # The server now holds the clean build: the API checks run on it.
        out |= _neo4j_api(backend, work)
    finally:
        if not was_running:
            server.stop()
    return out


def _neo4j_api(backend: Neo4jBackend, work: Path) -> dict[str, Any]:
    roots = work / "roots"
    roots.mkdir(parents=True, exist_ok=True)
    settings = backend.settings(work / "api", api=ApiSettings(ingest_roots=[roots]))
    c = build(settings)
    c.store.open()
    out: dict[str, Any] = {}
    try:
        app = create_app(settings, container=c)
        with live_server(app) as url, httpx.Client(base_url=url, timeout=300) as client:
            out |= neo4j_injection.run(backend, c.store, client, roots, work / "cli")
            out |= api_outage(backend, client)
    finally:
        c.store.close()
    return out


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
                "crash_batches": got.batches,
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
        if "neo4j" not in skip:
            try:
                figures |= _neo4j_checks(args, work / "neo4j")
            except Exception as exc:  # the other figures are still written, and the run fails
                logging.exception("the Neo4j checks stopped")
                figures["neo4j_error"] = f"{type(exc).__name__}: {exc}"
    if args.keep_from:
        figures |= _carried(json.loads(args.keep_from.read_text(encoding="utf-8")), skip, figures)
    figures["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    _table(figures, args.out)
    if "neo4j_error" in figures:
        raise SystemExit(f"the Neo4j checks stopped: {figures['neo4j_error']}")


# Key prefixes of each check, for carrying a skipped check's figures over from an earlier run.
_PREFIXES = {
    "crash": ("crash_",),
    "fuzz": ("fuzz_",),
    "load": ("load_",),
    "injection": ("injection_", "cli_"),
}


def _carried(earlier: dict[str, Any], skip: set[str], figures: dict[str, Any]) -> dict[str, Any]:
    """The earlier run's figures of the skipped checks, named in ``carried_over`` with the
    seconds that run took, so that nobody reads them as this run's."""
    prefixes = tuple(p for check in skip for p in _PREFIXES.get(check, ()))
    kept = {k: v for k, v in earlier.items() if k.startswith(prefixes) and k not in figures}
    if not kept:
        return {}
    return kept | {
        "carried_over": sorted(kept),
        "carried_over_from_seconds": earlier.get("seconds"),
    }


def _table(figures: dict[str, Any], out: Path) -> None:
    rows = [
        ("crash: identical / runs", "crash_identical", "crash_runs"),
        ("crash: after a commit / salvaged", "crash_after_commit", "crash_salvaged"),
        ("load: errors / requests", "load_errors", "load_requests"),
        ("load: p50 / p95 ms", "load_p50_ms", "load_p95_ms"),
        ("load: p95 ms without /v1/ask", "load_p95_ms_without_ask", None),
        ("load: ingest overlap / window s", "load_ingest_overlap_s", "load_window_s"),
        ("load: documents ingested", "load_ingest_documents", None),
        ("fuzz: 5xx / requests", "fuzz_5xx", "fuzz_requests"),
        ("fuzz: undocumented status", "fuzz_undocumented_status", None),
        ("injection: effects / cases", "injection_effects", "injection_cases"),
        ("injection: 5xx / CLI crashes", "injection_5xx", "cli_crashes"),
        ("neo4j crash: identical / runs", "neo4j_crash_identical", "neo4j_crash_runs"),
        (
            "neo4j stop: CLI exit / error lines",
            "neo4j_stop_cli_exit_code",
            "neo4j_stop_cli_error_lines",
        ),
        ("neo4j stop: rerun identical", "neo4j_stop_rerun_identical", None),
        (
            "neo4j down: 503 / requests",
            "neo4j_api_down_503_problem_json",
            "neo4j_api_down_requests",
        ),
        ("neo4j down: slowest 503 s", "neo4j_api_down_max_seconds", None),
        ("neo4j back: first 200 after s", "neo4j_api_recovered_after_start_seconds", None),
        ("neo4j injection: effects", "neo4j_injection_effects", None),
        ("neo4j injection: 5xx / reads", "neo4j_injection_5xx", "neo4j_injection_read_cases"),
        (
            "neo4j cypher writes refused",
            "neo4j_injection_cypher_writes_refused",
            "neo4j_injection_cypher_writes",
        ),
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
