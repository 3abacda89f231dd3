"""Crash recovery: ``kill -9`` a real ``kg ingest`` after an observed number of committed
write batches (its ``--progress-json`` lines), spread over the whole write phase, rerun it to
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
# Small write batches, so that the kills spread over many commits (with the default 256 a
# 300-passage run commits twice).
BATCH_DOCUMENTS = 25


@dataclass
class CrashResult:
    passages: int
    clean_seconds: float
    runs: list[dict[str, Any]] = field(default_factory=list)
    clean: GraphDigest | None = None
    batches: int = 0  # write batches of the clean build

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
    """A real ``kg ingest`` in a subprocess; stderr (its progress as JSON lines, and any
    ``error:`` line) is kept for the caller to read."""
    env = {
        **os.environ,
        **backend.env(data_dir),
        "HF_HUB_OFFLINE": "1",
        "KG_INGEST__BATCH_DOCUMENTS": str(batch),
    }
    code = "from kg.cli import app; app()"
    return subprocess.Popen(
        [sys.executable, "-c", code, "ingest", str(corpus), "--progress-json"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def commits_in(stderr: str) -> int:
    """Write batches an ingest reported committed in its ``--progress-json`` lines."""
    return sum(1 for line in stderr.splitlines() if _is_commit(line))


def _is_commit(line: str) -> bool:
    if not line.startswith("{"):
        return False
    step = json.loads(line)
    return bool(step.get("phase") == "write")


def complete(
    backend: Backend, data_dir: Path, corpus: Path, batch: int = BATCH_DOCUMENTS
) -> tuple[float, int]:
    """Run an ingest to its end: (seconds, write batches it committed)."""
    start = time.perf_counter()
    proc = start_ingest(backend, data_dir, corpus, batch)
    _, stderr = proc.communicate(timeout=1800)
    text = stderr.decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"kg ingest failed ({proc.returncode}): {text[-2000:]}")
    return time.perf_counter() - start, commits_in(text)


def kill_after_commits(proc: subprocess.Popen[bytes], commits: int, fraction: float) -> int:
    """SIGKILL ``proc`` once it reports its ``commits``-th committed batch, ``fraction`` of the
    gap between its last two commits later (so the kill lands anywhere in the next batch's work
    or commit); returns the commits it reported before the kill, fewer when it ended first."""
    assert proc.stderr is not None
    seen, times = 0, [0.0, 0.0]
    for raw in proc.stderr:  # ends when the process does
        if _is_commit(raw.decode(errors="replace")):
            seen += 1
            times = [times[1], time.perf_counter()]
            if seen >= commits:
                break
    if seen >= commits and seen > 1:
        time.sleep(fraction * (times[1] - times[0]))
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    return seen


def kill_points(batches: int, kills: int) -> list[int]:
    """Commits to kill after, spread over the write phase: kill k of K after round(k*B/(K+1))
    committed batches, at least one and short of the last."""
    top = max(1, batches - 1)
    return [min(top, max(1, round(k * batches / (kills + 1)))) for k in range(1, kills + 1)]


def run(
    work: Path,
    passages: int,
    kills: int,
    seed: int,
    log: Any = print,
    backend: Backend | None = None,
    batch: int = BATCH_DOCUMENTS,
) -> CrashResult:
    """``kills`` runs, kill k after ``kill_points`` committed batches of the clean build's B,
    then a seeded fraction of one batch's time, so that the kills land in every part of a
    batch (building, embedding, inside the commit) and never before the first commit."""
    store = backend or Embedded()
    corpus = write_slice(MUSIQUE, passages, work / "corpus")
    clean_dir = work / "clean"
    store.reset(clean_dir)
    clean_s, batches = complete(store, clean_dir, corpus, batch)
    clean = store.digest(clean_dir)
    result = CrashResult(passages, clean_s, clean=clean, batches=batches)
    log(
        f"crash ({store.name}): clean build of {passages} passages in {clean_s:.0f}s, "
        f"{batches} write batches, {clean.counts}"
    )
    rng = random.Random(seed)
    for i, target in enumerate(kill_points(batches, kills)):
        data = work / f"kill-{i}"
        store.reset(data)
        proc = start_ingest(store, data, corpus, batch)
        started = time.perf_counter()
        seen = kill_after_commits(proc, target, rng.uniform(0.0, 1.0))
        killed = proc.returncode == -signal.SIGKILL
        at = time.perf_counter() - started
        # What the killed run left committed: 0 means it died before its first batch.
        partial = store.committed(data)
        # Opening the store above salvaged it if Kùzu could not replay its log.
        salvaged = (data / "recovered").exists()
        try:
            rerun_s, _ = complete(store, data, corpus, batch)
        except RuntimeError as exc:
            # The store did not recover: a figure, not a reason to stop the other runs.
            result.runs.append(
                {
                    "kill_at_s": round(at, 1),
                    "killed": killed,
                    "commits_at_kill": seen,
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
                "commits_at_kill": seen,
                "documents_at_kill": partial,
                "salvaged": salvaged,
                "identical": same,
                "counts": got.counts,
            }
        )
        log(
            f"crash ({store.name}) {i + 1}/{kills}: kill at {at:.0f}s after {seen}/{batches} "
            f"commits ({partial}/{passages} documents "
            f"committed{', log salvaged' if salvaged else ''}), rerun {rerun_s:.0f}s, "
            f"identical={same}"
        )
        shutil.rmtree(data, ignore_errors=True)
    return result
