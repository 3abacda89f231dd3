"""Crash recovery: ``kill -9`` a real ``kg ingest`` at seeded random moments, rerun it to
completion, and compare the graph's digest with one clean build of the same corpus."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.reliability.digest import GraphDigest, graph_digest
from core.errors import KgError
from kg.container import build
from kg.settings import Settings

MUSIQUE = Path("../shared/bench/multihop/musique/musique_train_corpus.json")
# Small write batches, so that random kills land between and inside commits (with the
# default 256 a 300-passage run commits twice and most kills land before the first).
BATCH_DOCUMENTS = 25


@dataclass
class CrashResult:
    passages: int
    clean_seconds: float
    runs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def identical(self) -> int:
        return sum(1 for r in self.runs if r["identical"])


def write_slice(source: Path, n: int, folder: Path) -> Path:
    """The first ``n`` passages as a corpus JSON of their own."""
    folder.mkdir(parents=True, exist_ok=True)
    passages = json.loads(source.read_text(encoding="utf-8"))[:n]
    target = folder / f"musique_first_{n}.json"
    target.write_text(json.dumps(passages, ensure_ascii=False), encoding="utf-8")
    return target


def _ingest(data_dir: Path, corpus: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "KG_DATA_DIR": str(data_dir),
        "HF_HUB_OFFLINE": "1",
        "KG_INGEST__BATCH_DOCUMENTS": str(BATCH_DOCUMENTS),
    }
    code = "from kg.cli import app; app()"
    return subprocess.Popen(
        [sys.executable, "-c", code, "ingest", str(corpus)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _complete(data_dir: Path, corpus: Path) -> float:
    start = time.perf_counter()
    proc = _ingest(data_dir, corpus)
    _, stderr = proc.communicate(timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"kg ingest failed ({proc.returncode}): {stderr.decode()[-2000:]}")
    return time.perf_counter() - start


def _digest(data_dir: Path) -> GraphDigest:
    store = build(Settings(data_dir=data_dir)).store
    with store:
        return graph_digest(store)


def _committed(data_dir: Path) -> int:
    """Documents a killed run left committed (opening the store replays its log); -1 when
    the store cannot be read yet (killed while creating the schema)."""
    if not (data_dir / "graph.kuzu").exists():
        return 0
    try:
        return _digest(data_dir).counts.get("documents", 0)
    except KgError:
        return -1


def run(work: Path, passages: int, kills: int, seed: int, log: Any = print) -> CrashResult:
    corpus = write_slice(MUSIQUE, passages, work / "corpus")
    clean_dir = work / "clean"
    clean_s = _complete(clean_dir, corpus)
    clean = _digest(clean_dir)
    log(f"crash: clean build of {passages} passages in {clean_s:.0f}s, {clean.counts}")
    result = CrashResult(passages, clean_s)
    rng = random.Random(seed)
    for i in range(kills):
        data = work / f"kill-{i}"
        at = rng.uniform(0.05, 0.95) * clean_s
        proc = _ingest(data, corpus)
        try:
            proc.wait(timeout=at)
            killed = False  # it finished first: the rerun below must leave it unchanged
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed = True
        # What the killed run left committed: 0 means it died before its first batch.
        partial = _committed(data)
        # Opening the store above salvaged it if Kùzu could not replay its log.
        salvaged = (data / "recovered").exists()
        try:
            rerun_s = _complete(data, corpus)
        except RuntimeError as exc:
            # The store did not recover: a figure, not a reason to stop the other runs.
            result.runs.append(
                {
                    "kill_at_s": round(at, 1),
                    "killed": killed,
                    "documents_at_kill": partial,
                    "salvaged": salvaged,
                    "identical": False,
                    "error": str(exc),
                }
            )
            log(f"crash {i + 1}/{kills}: kill at {at:.0f}s, rerun FAILED: {str(exc)[-200:]}")
            shutil.rmtree(data, ignore_errors=True)
            continue
        got = _digest(data)
        same = got == clean
        result.runs.append(
            {
                "kill_at_s": round(at, 1),
                "killed": killed,
                "documents_at_kill": partial,
                "salvaged": salvaged,
                "identical": same,
                "counts": got.counts,
            }
        )
        log(
            f"crash {i + 1}/{kills}: kill at {at:.0f}s ({partial}/{passages} documents "
            f"committed{', log salvaged' if salvaged else ''}), rerun {rerun_s:.0f}s, "
            f"identical={same}"
        )
        shutil.rmtree(data, ignore_errors=True)
    return result
