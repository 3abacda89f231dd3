"""``kg sync`` and ``kg watch``: keep the graph in step with directories.

Both record their runs as sync jobs (``<data_dir>/jobs``), the same records the API shows.
The first SIGINT/SIGTERM stops a run after the batch it is writing (nothing half-written, the
next run finishes the work); a second SIGINT stops at once, which is safe too.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.progress import TaskID

from core.errors import ConfigError
from extraction.jobs import Job, JobManager
from extraction.pipeline import ProgressHook
from extraction.sync import Syncer
from extraction.sync_config import parse_interval
from kg import holder
from kg.cli_support import err, fail, opened, out, progress
from kg.container import Container
from kg.settings import get_settings

DirsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Directories or corpus files to follow (default: KG_SYNC__DIRS)."),
]
_EXIT_CANCELLED = 130


class _Stopper:
    """Set by the first SIGINT/SIGTERM; the second SIGINT falls back to KeyboardInterrupt."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self) -> bool:
        return self.requested

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        err.print(f"{signal.Signals(signum).name}: stopping after the current batch")

    @contextmanager
    def installed(self) -> Iterator[_Stopper]:
        previous = {s: signal.signal(s, self._handle) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield self
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self.requested and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(0.5, left))


def _manager(c: Container, progress_hook: ProgressHook) -> JobManager:
    settings = c.settings
    syncer = Syncer(
        c.store,
        c.ingestor(),
        settings.ingest.max_file_bytes,
        settings.data_dir / "sync",
        include_readmes=settings.ingest.include_readmes,
    )
    return JobManager(
        lambda dirs, stop: syncer.sync(dirs, progress_hook, stop),
        settings.data_dir / "jobs",
        settings.sync.paths,
    )


@contextmanager
def _progress_hook() -> Iterator[ProgressHook]:
    """Bars on a terminal; plain lines otherwise (logs, and tests that watch a run)."""
    if err.is_terminal:
        with progress() as bars:
            tasks: dict[str, TaskID] = {}

            def bar(phase: str, done: int, total: int) -> None:
                if phase not in tasks:
                    tasks[phase] = bars.add_task(phase, total=total)
                bars.update(tasks[phase], completed=done, total=total)

            yield bar
        return

    def line(phase: str, done: int, total: int) -> None:
        if phase in ("write", "delete") or done in (1, total):
            print(f"{phase} {done}/{total}", file=sys.stderr, flush=True)

    yield line


def _summary(job: Job) -> str:
    return (
        f"{job.id} {job.status}: {job.files} files; {job.added} added, {job.changed} changed, "
        f"{job.reextracted} re-extracted, {job.removed} removed, {job.reresolved} re-resolved, "
        f"{job.unchanged} unchanged, "
        f"{job.failed} failed in {job.seconds or 0:.1f}s"
    )


def _report(job: Job, as_json: bool) -> None:
    for readme in job.skipped:
        err.print(
            f"skipped: {readme}: README (KG_INGEST__INCLUDE_READMES=true ingests it)",
            highlight=False,
            soft_wrap=True,
        )
    for line in job.errors:
        err.print(f"[red]error:[/] {line}", highlight=False, soft_wrap=True)
    if as_json:
        sys.stdout.write(job.model_dump_json(indent=2) + "\n")
    else:
        out.print(_summary(job), highlight=False)


def _exit_code(job: Job) -> int:
    if job.status == "cancelled":
        return _EXIT_CANCELLED
    if job.status == "failed":
        return 1
    succeeded = job.added + job.changed + job.reextracted + job.unchanged + job.removed
    return 1 if job.failed and not succeeded else 0


def register(app: typer.Typer) -> None:
    @app.command()
    def sync(
        dirs: DirsArg = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the job as JSON.")] = False,
    ) -> None:
        """Sync once: ingest new and changed files, re-extract stale ones, drop removed ones."""
        with _Stopper().installed() as stopper, _progress_hook() as hook, opened(init=True) as c:
            job, started = _manager(c, hook).run(dirs, "cli", stopper)
        if not started:
            raise fail(f"sync {job.id} is already running (started {job.started_at:%c})")
        _report(job, as_json)
        if code := _exit_code(job):
            raise typer.Exit(code)

    @app.command()
    def watch(
        dirs: DirsArg = None,
        every: Annotated[
            str | None, typer.Option(help="Interval, e.g. 30s, 10m, 1h (default KG_SYNC__EVERY).")
        ] = None,
    ) -> None:
        """Sync now and then every interval until SIGINT/SIGTERM."""
        spec = every or get_settings().sync.every or "10m"
        try:
            interval = parse_interval(spec)
        except ConfigError as exc:
            raise fail(str(exc)) from exc
        settings = get_settings()
        with (
            _Stopper().installed() as stopper,
            opened(init=True) as c,
            holder.recorded(settings.data_dir, "kg watch")
            if settings.store == "embedded"
            else nullcontext(),
        ):
            while not stopper.requested:
                with _progress_hook() as hook:
                    job, started = _manager(c, hook).run(dirs, "watch", stopper)
                if started:
                    _report(job, as_json=False)
                else:
                    err.print(f"sync {job.id} is still running elsewhere; waiting")
                stopper.sleep(interval)
        out.print("watch stopped")
