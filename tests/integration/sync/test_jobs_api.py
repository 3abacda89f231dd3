"""The sync job routes on a real uvicorn server (loopback) over a real store, with httpx, on the
embedded store and on Neo4j."""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from api.errors import install_error_handlers
from api.routers import jobs
from extraction.jobs import JobManager
from extraction.sync import StopCheck
from extraction.sync_config import SyncSettings
from extraction.sync_report import SyncReport
from kg.container import Container
from kg.settings import Settings
from tests.integration.api.live import live_client
from tests.integration.sync.conftest import write_docs
from tests.stores import both_stores

pytestmark = both_stores


@contextmanager
def serving(
    container: Container, settings: Settings, gate: threading.Event | None = None
) -> Iterator[httpx.Client]:
    """The job routes served; with ``gate``, every run waits for it before it syncs."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        jobs.install(app, container, settings)
        if gate is not None:
            _held(app.state.jobs, gate)
        try:
            yield
        finally:
            jobs.uninstall(app)

    app = FastAPI(lifespan=lifespan)
    install_error_handlers(app)
    app.include_router(jobs.router)
    with live_client(app, timeout=60) as client:
        yield client


def _held(manager: JobManager, gate: threading.Event) -> None:
    """Runs wait for ``gate``: a test sees a job running for as long as it needs to, instead
    of racing a sync that may finish first."""
    run = manager._runner

    def waiting(dirs: Sequence[Path], stop: StopCheck) -> SyncReport:
        assert gate.wait(timeout=120), "the test never let the run go"
        return run(dirs, stop)

    manager._runner = waiting


def with_sync(container: Container, dirs: str, every: str = "") -> Settings:
    return container.settings.model_copy(update={"sync": SyncSettings(dirs=dirs, every=every)})


def finished(client: httpx.Client, job_id: str, timeout_s: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] != "running":
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still running after {timeout_s} s")


def never_run(dirs: Sequence[Path], stop: StopCheck) -> SyncReport:
    raise AssertionError("this manager only reads the records")


def test_trigger_reports_the_running_job_then_lists_and_gets(
    container: Container, tmp_path: Path
) -> None:
    src = tmp_path / "src"
    write_docs(src, 0, 12)
    gate = threading.Event()
    with serving(container, with_sync(container, str(src)), gate) as client:
        first = client.post("/v1/sync")
        assert first.status_code == 202, first.text
        body = first.json()
        assert body["started"] is True and body["job"]["status"] == "running"
        job_id = body["job"]["id"]
        assert first.headers["location"] == f"/v1/jobs/{job_id}"

        again = client.post("/v1/sync")
        assert again.status_code == 200
        assert again.json() == {"started": False, "job": body["job"]}

        gate.set()
        done = finished(client, job_id)
        assert done["status"] == "succeeded" and done["trigger"] == "api"
        assert (done["added"], done["failed"], done["errors"]) == (12, 0, [])
        assert done["dirs"] == [str(src)] and done["finished_at"]

        second = client.post("/v1/sync").json()["job"]
        assert second["id"] != job_id
        assert finished(client, second["id"])["unchanged"] == 12

        listed = client.get("/v1/jobs", params={"limit": 10}).json()["jobs"]
        assert [j["id"] for j in listed] == [second["id"], job_id]
        assert client.get("/v1/jobs", params={"limit": 1}).json()["jobs"][0]["id"] == second["id"]

        missing = client.get("/v1/jobs/sync-nope")
        assert missing.status_code == 404
        assert missing.headers["content-type"].startswith("application/problem+json")
        assert "sync-nope" in missing.json()["detail"]
        assert client.get("/v1/jobs", params={"limit": 0}).status_code == 422
    assert container.store.counts().documents == 12


def test_no_directories_configured_is_a_conflict(container: Container) -> None:
    with serving(container, container.settings) as client:
        refused = client.post("/v1/sync")
        assert refused.status_code == 409
        assert "KG_SYNC__DIRS" in refused.json()["detail"]
        assert client.get("/v1/jobs").json() == {"jobs": []}


def test_schedule_runs_and_records_survive_a_restart(container: Container, tmp_path: Path) -> None:
    src = tmp_path / "src"
    write_docs(src, 0, 3)
    settings = with_sync(container, str(src), every="1s")
    with serving(container, settings) as client:
        deadline = time.monotonic() + 90
        runs: list[dict[str, Any]] = []
        while time.monotonic() < deadline and len(runs) < 2:
            runs = [j for j in client.get("/v1/jobs").json()["jobs"] if j["status"] != "running"]
            time.sleep(0.2)
    assert len(runs) >= 2 and {j["trigger"] for j in runs} == {"schedule"}
    oldest, newest = runs[-1], runs[0]
    assert oldest["added"] == 3 and newest["unchanged"] == 3 and newest["added"] == 0

    # A new process (here: a new manager on the same folder) sees the same history, and the
    # shutdown left no run behind.
    manager = JobManager(never_run, settings.data_dir / "jobs")
    history = manager.recent(500)
    assert {j["id"] for j in runs} <= {j.id for j in history}
    assert all(j.status != "running" for j in history)


def test_body_dirs_are_synced_inside_the_allowed_roots(
    container: Container, tmp_path: Path
) -> None:
    """``{"dirs": [...]}`` syncs those folders (it was ignored: the configured dirs ran), each
    inside the ingest roots or the configured dirs; a field the body does not have is a 422."""
    root = tmp_path / "allowed"
    configured, named = root / "configured", root / "named"
    write_docs(configured, 0, 2)
    write_docs(named, 10, 3)
    settings = with_sync(container, str(configured)).model_copy(
        update={"api": container.settings.api.model_copy(update={"ingest_roots": [root]})}
    )
    with serving(container, settings) as client:
        started = client.post("/v1/sync", json={"dirs": ["named"]})
        assert started.status_code == 202, started.text
        done = finished(client, started.json()["job"]["id"])
        assert done["dirs"] == [str(named.resolve())] and done["added"] == 3
        outside = client.post("/v1/sync", json={"dirs": [str(tmp_path)]})
        assert outside.status_code == 403 and "outside" in outside.json()["detail"]
        missing = client.post("/v1/sync", json={"dirs": ["nope"]})
        assert missing.status_code == 422 and "not a directory" in missing.json()["detail"]
        typo = client.post("/v1/sync", json={"dir": ["named"]})
        assert typo.status_code == 422 and "dir" in typo.json()["detail"]
    assert container.store.counts().documents == 3
