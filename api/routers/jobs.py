"""Sync jobs over HTTP: trigger a sync of the configured directories and see the runs.

``POST /v1/sync`` answers **202 Accepted** with ``{"started": true, "job": ...}`` when it starts a
run, and **200 OK** with ``{"started": false, "job": ...}`` naming the run already going when
there is one: only one sync runs at a time, and finding one running is a normal outcome, not an
error. Both carry ``Location: /v1/jobs/{id}``. With no ``KG_SYNC__DIRS`` the answer is 409.
A body ``{"dirs": [...]}`` syncs those directories instead, each inside ``KG_API__INGEST_ROOTS``
or one of ``KG_SYNC__DIRS`` (403 otherwise): a sync reads them and deletes documents of files
gone from them, so a caller cannot point the server anywhere else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Body, FastAPI, Query, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from api.errors import Problem, problem_responses
from api.services import ApiHost, Services
from core.errors import ConfigError
from extraction.jobs import Job, JobManager
from extraction.sync import Syncer

router = APIRouter(prefix="/v1", tags=["sync"])

MAX_JOBS_PAGE = 500
# A shutdown waits this long for a running sync to reach the end of its current batch.
SHUTDOWN_WAIT_S = 60.0


class SyncRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    # Relative paths are taken from the first allowed root (ingest roots, then sync dirs).
    dirs: list[str] | None = Field(default=None, min_length=1, max_length=100)


class SyncTriggered(BaseModel):
    started: bool
    job: Job


class JobList(BaseModel):
    jobs: list[Job]


def get_jobs(request: Request) -> JobManager:
    manager = getattr(request.app.state, "jobs", None)
    if not isinstance(manager, JobManager):
        raise ConfigError("the API was started without the sync jobs (api.routers.jobs.install)")
    return manager


@router.post(
    "/sync",
    status_code=status.HTTP_202_ACCEPTED,
    responses={
        200: {"model": SyncTriggered, "description": "A sync is already running"},
        **problem_responses(409),
    },
)
def trigger_sync(
    request: Request,
    response: Response,
    body: Annotated[SyncRequest | None, Body()] = None,
) -> SyncTriggered:
    """Start a sync of ``KG_SYNC__DIRS`` (or of the body's ``dirs``) in the background, or
    name the one running."""
    manager = get_jobs(request)
    dirs = _allowed_dirs(body.dirs, request) if body and body.dirs else None
    if not dirs and not manager.default_dirs:
        raise Problem(status.HTTP_409_CONFLICT, "no directories to sync: KG_SYNC__DIRS is unset")
    job, started = manager.start(dirs, trigger="api")
    if not started:
        response.status_code = status.HTTP_200_OK
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return SyncTriggered(started=started, job=job)


def _allowed_dirs(raw: list[str], request: Request) -> list[Path]:
    roots: list[Path] = list(getattr(request.app.state, "sync_roots", ()))
    if not roots:
        raise Problem(
            status.HTTP_403_FORBIDDEN,
            "syncing named directories needs KG_API__INGEST_ROOTS or KG_SYNC__DIRS",
        )
    wanted: list[Path] = []
    for text in raw:
        try:
            path = (roots[0] / text).resolve()  # an absolute ``text`` replaces the root
        except (OSError, ValueError) as exc:
            raise Problem(422, f"{text!r}: not a usable path ({exc})") from exc
        if not any(path.is_relative_to(root) for root in roots):
            raise Problem(status.HTTP_403_FORBIDDEN, f"{text}: outside the allowed directories")
        if not path.is_dir():
            raise Problem(422, f"{text}: not a directory")
        wanted.append(path)
    return wanted


@router.get("/jobs")
def list_jobs(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=MAX_JOBS_PAGE)] = 50,
) -> JobList:
    """Sync runs, most recent first, across restarts and from the CLI too."""
    return JobList(jobs=get_jobs(request).recent(limit))


@router.get("/jobs/{job_id}")
def get_job(job_id: str, request: Request) -> Job:
    """One sync run: status, times, counts and errors (404 when unknown)."""
    return get_jobs(request).get(job_id)


def install(app: FastAPI, container: Services, settings: ApiHost) -> None:
    """Create the job manager on ``app.state.jobs``; start the schedule when one is set."""
    syncer = Syncer(
        container.store,
        container.ingestor(),
        settings.ingest.max_file_bytes,
        settings.data_dir / "sync",
        include_readmes=settings.ingest.include_readmes,
    )
    manager = JobManager(
        lambda dirs, stop: syncer.sync(dirs, should_stop=stop),
        settings.data_dir / "jobs",
        settings.sync.paths,
    )
    app.state.jobs = manager
    # Where a caller may name directories to sync: the ingest roots and the configured dirs.
    app.state.sync_roots = tuple(
        r.resolve() for r in (*settings.api.ingest_roots, *settings.sync.paths)
    )
    interval = settings.sync.interval_s
    if settings.sync.paths and interval is not None:
        manager.schedule(interval)


def uninstall(app: FastAPI) -> None:
    """Stop the schedule and let a running sync stop after its current batch."""
    manager = getattr(app.state, "jobs", None)
    if isinstance(manager, JobManager):
        manager.shutdown(SHUTDOWN_WAIT_S)
        del app.state.jobs
        app.state.sync_roots = ()
