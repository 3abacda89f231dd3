"""Sync jobs: one run at a time, a record of every run, and a periodic schedule.

Records are JSON lines in ``<data_dir>/jobs/jobs.jsonl`` (one line when a run starts, one when it
ends; the last line of a job wins), so the history survives restarts and is shared by the CLI and
the API. An exclusive ``flock`` on ``sync.lock`` is held for the whole run: it keeps two
processes from syncing at once, and tells a live run from one whose process died (shown as
``interrupted``). The schedule is an APScheduler 3 ``BackgroundScheduler``.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from core.errors import ConfigError, NotFoundError, StoreError
from extraction.sync import StopCheck
from extraction.sync_report import SyncReport

log = logging.getLogger(__name__)

JobStatus = Literal["running", "succeeded", "partial", "failed", "cancelled", "interrupted"]
SyncRunner = Callable[[Sequence[Path], StopCheck], SyncReport]

JOBS_FILE = "jobs.jsonl"
LOCK_FILE = "sync.lock"
MAX_ERRORS = 100  # per job record; the failed count stays exact
_WAIT_FOR_RECORD_S = 2.0


class Job(BaseModel):
    id: str
    status: JobStatus
    trigger: str = Field(description="api, schedule, cli or watch")
    dirs: list[str]
    started_at: datetime
    finished_at: datetime | None = None
    seconds: float | None = None
    files: int = 0
    added: int = 0
    changed: int = 0
    reextracted: int = 0
    removed: int = 0
    reresolved: int = 0
    unchanged: int = 0
    failed: int = 0
    errors: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(
        default_factory=list,
        description="README.md files left out of the folders (KG_INGEST__INCLUDE_READMES)",
    )

    def finished(self, report: SyncReport) -> Job:
        if report.cancelled:
            status: JobStatus = "cancelled"
        else:
            status = "partial" if report.failed else "succeeded"
        errors = [str(f) for f in report.failed[:MAX_ERRORS]]
        if len(report.failed) > MAX_ERRORS:
            errors.append(f"... and {len(report.failed) - MAX_ERRORS} more")
        return self.model_copy(
            update={
                "status": status,
                "finished_at": datetime.now(UTC),
                "seconds": round(report.seconds, 3),
                "files": report.files,
                "added": len(report.added),
                "changed": len(report.changed),
                "reextracted": len(report.reextracted),
                "removed": len(report.removed),
                "reresolved": len(report.reresolved),
                "unchanged": report.unchanged,
                "failed": len(report.failed),
                "errors": errors,
                "skipped": report.skipped[:MAX_ERRORS],
            }
        )

    def ended(self, status: JobStatus, error: str) -> Job:
        now = datetime.now(UTC)
        return self.model_copy(
            update={
                "status": status,
                "finished_at": now,
                "seconds": round((now - self.started_at).total_seconds(), 3),
                "errors": [*self.errors, error][-MAX_ERRORS:],
            }
        )


class JobManager:
    """Constructing does no I/O; the jobs folder is created by the first run."""

    def __init__(
        self,
        runner: SyncRunner,
        jobs_dir: Path,
        default_dirs: Sequence[Path] = (),
        keep: int = 500,
    ) -> None:
        self._runner = runner
        self._dir = jobs_dir
        self._default_dirs = list(default_dirs)
        self._keep = keep
        self._lock = threading.Lock()
        self._current: Job | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._scheduler: Any = None

    # --- runs -------------------------------------------------------------------
    @property
    def current(self) -> Job | None:
        return self._current

    @property
    def default_dirs(self) -> list[Path]:
        return list(self._default_dirs)

    def start(self, dirs: Sequence[Path] | None = None, trigger: str = "api") -> tuple[Job, bool]:
        """Start a run in the background: (the new job, True), or (the running job, False)."""
        with self._lock:
            claimed = self._claim(dirs, trigger)
            if isinstance(claimed, Job):
                return claimed, False
            job, handle = claimed
            self._thread = threading.Thread(
                target=self._execute, args=(job, handle, None), name=f"kg-{job.id}", daemon=True
            )
            self._thread.start()
        return job, True

    def run(
        self,
        dirs: Sequence[Path] | None = None,
        trigger: str = "cli",
        should_stop: StopCheck | None = None,
    ) -> tuple[Job, bool]:
        """Run in the calling thread: (the finished job, True), or (the running job, False)."""
        with self._lock:
            claimed = self._claim(dirs, trigger)
            if isinstance(claimed, Job):
                return claimed, False
            job, handle = claimed
        return self._execute(job, handle, should_stop), True

    def cancel(self) -> None:
        """Ask the running job to stop after the batch it is writing."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a background run; True when none is running any more."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def _claim(self, dirs: Sequence[Path] | None, trigger: str) -> Job | tuple[Job, IO[str]]:
        if self._current is not None:
            return self._current
        paths = list(dirs) if dirs else self._default_dirs
        if not paths:
            raise ConfigError("no directories to sync: name them or set KG_SYNC__DIRS")
        handle = self._try_lock()
        if handle is None:
            return self._running_elsewhere()
        try:
            self._settle(self._read())
            now = datetime.now(UTC)
            job = Job(
                id=f"sync-{now:%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:8]}",
                status="running",
                trigger=trigger,
                dirs=[str(p) for p in paths],
                started_at=now,
            )
            self._append(job)
        except BaseException:
            handle.close()
            raise
        self._current = job
        self._stop.clear()
        return job, handle

    def _execute(self, job: Job, handle: IO[str], should_stop: StopCheck | None) -> Job:
        def stop() -> bool:
            return self._stop.is_set() or (should_stop is not None and should_stop())

        final = job.ended("interrupted", "the run was stopped before it finished")
        try:
            final = job.finished(self._runner([Path(d) for d in job.dirs], stop))
        except Exception as exc:  # the record must say why the run failed
            log.exception("sync %s failed", job.id)
            final = job.ended("failed", f"{type(exc).__name__}: {exc}")
        finally:
            try:
                self._append(final)
            finally:
                with self._lock:
                    self._current = None
                handle.close()  # releases the flock
        return final

    # --- records ----------------------------------------------------------------
    def get(self, job_id: str) -> Job:
        for job in self._jobs():
            if job.id == job_id:
                return job
        raise NotFoundError(f"no sync job {job_id!r}")

    def recent(self, limit: int = 50) -> list[Job]:
        """Most recent first."""
        jobs = sorted(self._jobs(), key=lambda j: j.started_at, reverse=True)
        return jobs[: max(0, limit)]

    def _jobs(self) -> list[Job]:
        jobs = self._read()
        current = self._current
        mine = current.id if current else None
        dangling = [j for j in jobs.values() if j.status == "running" and j.id != mine]
        if dangling and self._lock_is_free():
            for j in dangling:
                jobs[j.id] = _interrupted(j)
        return list(jobs.values())

    def _read(self) -> dict[str, Job]:
        path = self._dir / JOBS_FILE
        jobs: dict[str, Job] = {}
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return jobs
        for line in lines:
            if not line.strip():
                continue
            try:
                job = Job.model_validate_json(line)
            except ValidationError:  # a line cut short by a kill
                continue
            jobs[job.id] = job
        return jobs

    def _settle(self, jobs: dict[str, Job]) -> None:
        """Under the lock: close records of dead runs, and compact a long file."""
        dangling = [_interrupted(j) for j in jobs.values() if j.status == "running"]
        for j in dangling:
            jobs[j.id] = j
        path = self._dir / JOBS_FILE
        if path.exists() and sum(1 for _ in _lines(path)) > 2 * self._keep:
            newest = sorted(jobs.values(), key=lambda j: j.started_at)[-self._keep :]
            tmp = path.with_suffix(".tmp")
            tmp.write_text("".join(j.model_dump_json() + "\n" for j in newest), encoding="utf-8")
            os.replace(tmp, path)
        else:
            for j in dangling:
                self._append(j)

    def _append(self, job: Job) -> None:
        self._dir.mkdir(parents=True, exist_ok=True)
        with (self._dir / JOBS_FILE).open("a", encoding="utf-8") as fh:
            fh.write(job.model_dump_json() + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    # --- the process lock ---------------------------------------------------------
    def _try_lock(self) -> IO[str] | None:
        self._dir.mkdir(parents=True, exist_ok=True)
        handle = (self._dir / LOCK_FILE).open("a", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return None
        return handle

    def _lock_is_free(self) -> bool:
        if not (self._dir / LOCK_FILE).exists():
            return True
        handle = self._try_lock()
        if handle is None:
            return False
        handle.close()
        return True

    def _running_elsewhere(self) -> Job:
        # The other process appends its record right after taking the lock.
        deadline = time.monotonic() + _WAIT_FOR_RECORD_S
        while True:
            running = [j for j in self._read().values() if j.status == "running"]
            if running:
                return max(running, key=lambda j: j.started_at)
            if time.monotonic() > deadline:
                raise StoreError("another process holds the sync lock but records no job")
            time.sleep(0.05)

    # --- schedule ---------------------------------------------------------------------
    def schedule(self, every_s: float, dirs: Sequence[Path] | None = None) -> None:
        """Run every ``every_s`` seconds, the first run now; a run still going is not doubled."""
        from apscheduler.schedulers.background import BackgroundScheduler
        from apscheduler.triggers.interval import IntervalTrigger

        if self._scheduler is not None:
            raise ConfigError("the sync schedule is already running")
        paths = list(dirs) if dirs else list(self._default_dirs)
        if not paths:
            raise ConfigError("no directories to sync: set KG_SYNC__DIRS")
        scheduler = BackgroundScheduler(timezone=UTC, daemon=True)
        scheduler.add_job(
            self._scheduled,
            IntervalTrigger(seconds=every_s, timezone=UTC),
            args=(paths,),
            id="kg-sync",
            next_run_time=datetime.now(UTC),
            coalesce=True,
            max_instances=1,
            misfire_grace_time=None,
        )
        scheduler.start()
        self._scheduler = scheduler

    def _scheduled(self, paths: list[Path]) -> None:
        try:
            job, started = self.start(paths, trigger="schedule")
        except Exception:  # a scheduler thread has nobody to raise to
            log.exception("scheduled sync could not start")
            return
        if not started:
            log.info("scheduled sync skipped: %s is still running", job.id)

    def shutdown(self, timeout: float | None = None) -> bool:
        """Stop the schedule, stop a running job after its current batch, and wait for it."""
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)
            self._scheduler = None
        if self._current is not None:
            self.cancel()
        return self.wait(timeout)


def _interrupted(job: Job) -> Job:
    return job.model_copy(
        update={
            "status": "interrupted",
            "errors": [*job.errors, "the process running this sync stopped before it finished"],
        }
    )


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as fh:
        yield from fh
