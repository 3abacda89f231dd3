"""``kill -9`` mid-ingest on both embedded stores, then a rerun to completion, compared with a
clean build of the same corpus by graph digest (bench/reliability/digest.py).

The kill is triggered by an event, never by time: a child ingest prints a line as each batch's
``upsert_documents`` starts and ends; the parent kills the child (and FalkorDB's server with
it, so that the server's append-only file has to replay too) as the seeded Nth batch starts
writing, so the kill lands inside the store write (its reads, its MULTI/EXEC or Kùzu's
transaction, commit and checkpoint) with whatever the race gives.

    python -m bench.stores_crash --kills 10 --out bench/results/embedded-stores-crash.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.reliability.digest import GraphDigest, graph_digest
from bench.stores_compare import CORPORA, MULTIHOP, STORES, write_slice
from kg.container import build
from kg.settings import Settings


def child(store: str, data: Path, corpus: Path) -> None:
    # The batch size comes in KG_INGEST__BATCH_DOCUMENTS (see _spawn).
    container = build(Settings(data_dir=data, store=store))  # type: ignore[arg-type]
    writes = {"n": 0}
    upsert = container.store.upsert_documents

    def announced(graphs: Any) -> None:
        writes["n"] += 1
        print(f"writing {writes['n']}", flush=True)
        upsert(graphs)
        print(f"committed {writes['n']} {len(graphs)}", flush=True)

    container.store.upsert_documents = announced  # type: ignore[method-assign]
    with container.store:
        container.store.init_schema()
        print(f"server {getattr(container.store, 'server_pid', None) or 0}", flush=True)
        container.ingestor().ingest_paths([corpus])
    print("done", flush=True)


def _spawn(store: str, data: Path, corpus: Path, batch: int) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "bench.stores_crash", "child", "--store", store]
    cmd += ["--data", str(data), "--corpus", str(corpus), "--batch", str(batch)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "KG_INGEST__BATCH_DOCUMENTS": str(batch)}
    return subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )


def _complete(store: str, data: Path, corpus: Path, batch: int) -> float:
    t0 = time.perf_counter()
    proc = _spawn(store, data, corpus, batch)
    out, _ = proc.communicate(timeout=1800)
    if proc.returncode != 0 or "done" not in out:
        raise RuntimeError(f"ingest on {store} failed ({proc.returncode}): {out[-500:]}")
    return time.perf_counter() - t0


def _kill_at(store: str, data: Path, corpus: Path, batch: int, nth: int) -> dict[str, Any]:
    """Run an ingest and kill it as its ``nth`` write starts; what it had committed."""
    proc = _spawn(store, data, corpus, batch)
    assert proc.stdout is not None
    server = 0
    committed = 0
    killed = False
    for line in proc.stdout:
        word, *rest = line.split()
        if word == "server":
            server = int(rest[0])
        elif word == "committed":
            committed += int(rest[1])
        elif word == "writing" and int(rest[0]) == nth:
            os.kill(proc.pid, signal.SIGKILL)
            if server:
                os.kill(server, signal.SIGKILL)
            killed = True
            break
    proc.wait()
    return {"nth_write": nth, "killed": killed, "documents_reported_committed": committed}


def _digest(store: str, data: Path) -> GraphDigest:
    with build(Settings(data_dir=data, store=store)).store as s:  # type: ignore[arg-type]
        return graph_digest(s)


def run(
    store: str, work: Path, corpus: Path, batch: int, kills: int, seed: int, reuse_clean: bool
) -> dict[str, Any]:
    passages = len(json.loads(corpus.read_text(encoding="utf-8")))
    batches = -(-passages // batch)
    clean_dir = work / store / "clean"
    clean_s = 0.0  # 0: the clean build of an earlier run was reused
    if not (reuse_clean and clean_dir.is_dir()):
        shutil.rmtree(clean_dir, ignore_errors=True)
        clean_s = _complete(store, clean_dir, corpus, batch)
    clean = _digest(store, clean_dir)
    print(f"{store}: clean build {clean_s:.0f}s {clean.counts}", file=sys.stderr, flush=True)
    rng = random.Random(seed)
    runs = []
    for i in range(kills):
        data = work / store / f"kill-{i}"
        shutil.rmtree(data, ignore_errors=True)
        trial = _kill_at(store, data, corpus, batch, rng.randint(2, batches))
        after_kill = _digest(store, data).counts.get("documents", 0)
        trial["documents_stored_after_kill"] = after_kill
        trial["lost_committed"] = after_kill < trial["documents_reported_committed"]
        try:
            _complete(store, data, corpus, batch)
            got = _digest(store, data)
            trial["identical"] = got == clean
            trial["counts"] = got.counts
        except (RuntimeError, Exception) as exc:  # a failure to recover is a result
            trial["identical"] = False
            trial["error"] = str(exc)[-300:]
        runs.append(trial)
        print(f"{store} {i + 1}/{kills}: {trial}", file=sys.stderr, flush=True)
        shutil.rmtree(data, ignore_errors=True)
    return {
        "passages": passages,
        "batch_documents": batch,
        "clean_seconds": round(clean_s, 1),
        "clean": clean.as_dict(),
        "identical": sum(1 for r in runs if r["identical"]),
        "kills": len(runs),
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd")
    c = sub.add_parser("child")
    c.add_argument("--store", choices=STORES, required=True)
    c.add_argument("--data", type=Path, required=True)
    c.add_argument("--corpus", type=Path, required=True)
    c.add_argument("--batch", type=int, required=True)
    parser.add_argument("--stores", default=",".join(STORES))
    parser.add_argument("--passages", type=int, default=120)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reuse-clean", action="store_true", help="keep an earlier clean build")
    parser.add_argument("--work", type=Path, default=Path(".kg/bench/stores-crash"))
    parser.add_argument("--multihop", type=Path, default=MULTIHOP, help="the shared sets' folder")
    parser.add_argument(
        "--out", type=Path, default=Path("bench/results/embedded-stores-crash.json")
    )
    args = parser.parse_args()
    if args.cmd == "child":
        child(args.store, args.data, args.corpus)
        return
    musique = args.multihop / CORPORA["musique"][0]
    corpus = write_slice(musique, args.passages, args.work / "corpus")
    result: dict[str, Any] = {"measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    for store in args.stores.split(","):
        result[store] = run(
            store, args.work, corpus, args.batch, args.kills, args.seed, args.reuse_clean
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(
        json.dumps(
            {
                s: f"{r['identical']} of {r['kills']}"
                for s, r in result.items()
                if isinstance(r, dict)
            }
        )
    )


if __name__ == "__main__":
    main()
