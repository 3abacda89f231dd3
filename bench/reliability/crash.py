"""Crash recovery: ``kill -9`` a real ``kg ingest`` at seeded random moments, rerun it to
completion, and compare the graph's digest with one clean build of the same corpus.

The store is a ``Backend``: the embedded one (a fresh data directory per run) or a Neo4j
server (``bench.reliability.neo4j``: the one database wiped before each run)."""

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
from typing import Any, Protocol

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
    clean: GraphDigest | None = None
    first_commit_s: float = 0.0

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


class Backend(Protocol):
    """Where a ``kg ingest`` writes, as the crash check needs to know it."""

    @property
    def name(self) -> str: ...

    def env(self, data_dir: Path) -> dict[str, str]:
        """``KG_*`` variables that point the CLI at this store (the data dir holds run markers
        and caches on every backend)."""
        ...

    def reset(self, data_dir: Path) -> None:
        """Make the store empty before a run that starts from nothing."""
        ...

    def digest(self, data_dir: Path) -> GraphDigest: ...

    def committed(self, data_dir: Path) -> int:
        """Documents a killed run left committed; -1 when the store cannot be read."""
        ...


class Embedded:
    name = "embedded"

    def env(self, data_dir: Path) -> dict[str, str]:
        return {"KG_STORE": "embedded", "KG_DATA_DIR": str(data_dir)}

    def reset(self, data_dir: Path) -> None:
        shutil.rmtree(data_dir, ignore_errors=True)

    def digest(self, data_dir: Path) -> GraphDigest:
        store = build(Settings(data_dir=data_dir, store="embedded")).store
        with store:
            return graph_digest(store)

    def committed(self, data_dir: Path) -> int:
        """Opening the store replays its log; -1 when killed while creating the schema."""
        if not (data_dir / "graph.kuzu").exists():
            return 0
        try:
            return self.digest(data_dir).counts.get("documents", 0)
        except KgError:
            return -1


def start_ingest(
    backend: Backend, data_dir: Path, corpus: Path, batch: int = BATCH_DOCUMENTS
) -> subprocess.Popen[bytes]:
    """A real ``kg ingest`` in a subprocess; stderr is kept for the caller to read."""
    env = {
        **os.environ,
        **backend.env(data_dir),
        "HF_HUB_OFFLINE": "1",
        "KG_INGEST__BATCH_DOCUMENTS": str(batch),
    }
    code = "from kg.cli import app; app()"
    return subprocess.Popen(
        [sys.executable, "-c", code, "ingest", str(corpus)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def complete(backend: Backend, data_dir: Path, corpus: Path, batch: int = BATCH_DOCUMENTS) -> float:
    start = time.perf_counter()
    proc = start_ingest(backend, data_dir, corpus, batch)
    _, stderr = proc.communicate(timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"kg ingest failed ({proc.returncode}): {stderr.decode()[-2000:]}")
    return time.perf_counter() - start


def _timed_clean(store: Backend, data_dir: Path, corpus: Path, batch: int) -> tuple[float, float]:
    """A clean build watched from outside: (seconds to its first commit, seconds in all)."""
    start = time.perf_counter()
    proc = start_ingest(store, data_dir, corpus, batch)
    first = 0.0
    while proc.poll() is None and not first:
        if store.committed(data_dir) > 0:
            first = time.perf_counter() - start
        time.sleep(0.2)
    _, stderr = proc.communicate(timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"kg ingest failed ({proc.returncode}): {stderr.decode()[-2000:]}")
    return first, time.perf_counter() - start


def _kill_after(
    store: Backend, data_dir: Path, proc: subprocess.Popen[bytes], documents: int, delay: float
) -> bool:
    """SIGKILL ``proc`` ``delay`` seconds after ``documents`` are committed; False when it ended
    first (the rerun must then leave the graph unchanged)."""
    while proc.poll() is None and store.committed(data_dir) < documents:
        time.sleep(0.05)
    time.sleep(delay)
    if proc.poll() is not None:
        return False
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return True


def run(
    work: Path,
    passages: int,
    kills: int,
    seed: int,
    log: Any = print,
    backend: Backend | None = None,
    batch: int = BATCH_DOCUMENTS,
    from_first_commit: bool = False,
) -> CrashResult:
    """``kills`` runs killed at seeded random moments of the clean build's duration, or, with
    ``from_first_commit`` (a store another process can read while the ingest writes), after a
    seeded number of committed documents, so that every kill lands among the writes rather
    than in the CLI's start-up (model loading), which the embedded runs already cover."""
    store = backend or Embedded()
    corpus = write_slice(MUSIQUE, passages, work / "corpus")
    clean_dir = work / "clean"
    store.reset(clean_dir)
    first_s = 0.0
    if from_first_commit:
        first_s, clean_s = _timed_clean(store, clean_dir, corpus, batch)
    else:
        clean_s = complete(store, clean_dir, corpus, batch)
    clean = store.digest(clean_dir)
    result = CrashResult(passages, clean_s, clean=clean, first_commit_s=first_s)
    log(
        f"crash ({store.name}): clean build of {passages} passages in {clean_s:.0f}s, "
        f"{clean.counts}"
    )
    rng = random.Random(seed)
    for i in range(kills):
        data = work / f"kill-{i}"
        store.reset(data)
        proc = start_ingest(store, data, corpus, batch)
        started = time.perf_counter()
        if from_first_commit:
            # Timed kills missed the writes: a clean build commits all its batches within a few
            # seconds and spends the rest refreshing indexes. Watching the store instead, the
            # kill lands after a seeded number of committed documents, inside the next batch.
            target = rng.randint(1, max(1, passages - 1))
            killed = _kill_after(store, data, proc, target, rng.uniform(0.0, 0.3))
        else:
            try:
                proc.wait(timeout=rng.uniform(0.05, 0.95) * clean_s)
                killed = False  # it finished first: the rerun below must leave it unchanged
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                killed = True
        at = time.perf_counter() - started
        # What the killed run left committed: 0 means it died before its first batch.
        partial = store.committed(data)
        # Opening the store above salvaged it if Kùzu could not replay its log.
        salvaged = (data / "recovered").exists()
        try:
            rerun_s = complete(store, data, corpus, batch)
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
            log(
                f"crash ({store.name}) {i + 1}/{kills}: kill at {at:.0f}s, "
                f"rerun FAILED: {str(exc)[-200:]}"
            )
            shutil.rmtree(data, ignore_errors=True)
            continue
        got = store.digest(data)
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
            f"crash ({store.name}) {i + 1}/{kills}: kill at {at:.0f}s "
            f"({partial}/{passages} documents "
            f"committed{', log salvaged' if salvaged else ''}), rerun {rerun_s:.0f}s, "
            f"identical={same}"
        )
        shutil.rmtree(data, ignore_errors=True)
    return result
