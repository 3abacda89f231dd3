"""Real ``kg sync`` / ``kg watch`` processes, stopped hard (SIGKILL) and politely (SIGTERM);
the watch on the embedded store and on Neo4j."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from extraction.jobs import JobManager
from extraction.sync import REFRESH_MARKER
from retrieval.embedder import Embedder
from tests import stores
from tests.integration.sync.conftest import (
    KG,
    clean_build,
    fingerprint,
    jobs_of,
    kg,
    kg_env,
    opened,
    write_docs,
)

BATCH = {"KG_INGEST__BATCH_DOCUMENTS": "4"}
_WRITE = re.compile(r"^write (\d+)/(\d+)$")


def _prepare(tmp_path: Path, embedder: Embedder, kind: str = "embedded") -> tuple[Path, Path]:
    """A synced graph of 40 reports, then 20 changed, 10 deleted and 20 new on disk."""
    src, data = tmp_path / "src", tmp_path / "kg"
    write_docs(src, 0, 40)
    with opened(data, embedder, kind=kind) as (_, syncer):
        assert len(syncer.sync([src]).added) == 40
    write_docs(src, 0, 20, variant=" and the Estuary Link")
    for i in range(30, 40):
        (src / f"report-{i:03d}.md").unlink()
    write_docs(src, 40, 20)
    return src, data


def _stop_mid_write(
    args: list[str], data: Path, sig: signal.Signals, kind: str = "embedded"
) -> subprocess.Popen[str]:
    """Start a kg process and send ``sig`` as soon as its first batch is committed."""
    proc = subprocess.Popen(
        [*KG, *args],
        env=kg_env(data, **BATCH, **stores.env(kind)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        m = _WRITE.match(line.strip())
        if m and int(m.group(1)) < int(m.group(2)):
            proc.send_signal(sig)
            break
    return proc


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_sync_killed_mid_run_then_resumed_equals_clean_build(
    tmp_path: Path, embedder: Embedder
) -> None:
    src, data = _prepare(tmp_path, embedder)
    proc = _stop_mid_write(["sync", str(src)], data, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the sync ended before it could be killed"
    assert (data / "sync" / REFRESH_MARKER).exists()
    [record] = [j for j in jobs_of(data) if j["trigger"] == "cli"]
    assert record["status"] == "running"  # as the dead process left it

    resumed = kg(data, "sync", str(src), "--json", **BATCH)
    assert resumed.returncode == 0, resumed.stderr
    job = json.loads(resumed.stdout)
    assert job["status"] == "succeeded" and job["failed"] == 0
    # The killed run committed its deletions and first batch; the rest is done now.
    assert job["added"] + job["changed"] < 40 and job["unchanged"] > 0
    assert not (data / "sync" / REFRESH_MARKER).exists()

    manager = JobManager(lambda dirs, stop: pytest.fail("not run"), data / "jobs")
    statuses = {j.id: j.status for j in manager.recent()}
    assert statuses == {record["id"]: "interrupted", job["id"]: "succeeded"}

    with opened(data, embedder) as (c, _):
        synced = fingerprint(c.store)
    assert synced["counts"]["documents"] == 50
    assert synced == clean_build([src], tmp_path / "clean", embedder)


@pytest.mark.slow
@pytest.mark.timeout(240)
@stores.both_stores
def test_watch_stops_cleanly_on_sigterm(
    tmp_path: Path, embedder: Embedder, store_kind: str, store_overrides: dict[str, Any]
) -> None:
    src, data = _prepare(tmp_path, embedder, store_kind)
    proc = _stop_mid_write(["watch", str(src), "--every", "1h"], data, signal.SIGTERM, store_kind)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert "SIGTERM: stopping after the current batch" in stderr
    assert "watch stopped" in stdout
    [record] = jobs_of(data)[-1:]
    assert record["trigger"] == "watch" and record["status"] == "cancelled"
    assert record["finished_at"] and 0 < record["added"] + record["changed"] < 40

    with opened(data, embedder, kind=store_kind) as (c, syncer):
        report = syncer.sync([src])
        assert report.refreshed and not report.failed and not report.removed
        synced = fingerprint(c.store)
    assert synced == clean_build([src], tmp_path / "clean", embedder, store_kind)
