"""One sync at a time across processes, and the record of a run whose process died."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from extraction.jobs import JobManager
from extraction.sync import Syncer
from kg.container import Container

# A process that takes the sync lock and records a run that never ends by itself.
HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from extraction.jobs import JobManager

    def runner(dirs, stop):
        print("holding", flush=True)
        while not stop():
            time.sleep(0.1)
        raise SystemExit("stopped")

    JobManager(runner, Path(sys.argv[1]), [Path(sys.argv[2])]).run(trigger="cli")
    """
)


def manager_for(container: Container, jobs_dir: Path, src: Path) -> JobManager:
    s = container.settings
    syncer = Syncer(container.store, container.ingestor(), s.ingest.max_file_bytes, s.data_dir)
    return JobManager(lambda dirs, stop: syncer.sync(dirs, should_stop=stop), jobs_dir, [src])


def test_other_process_run_is_reported_then_marked_interrupted(
    container: Container, tmp_path: Path
) -> None:
    jobs_dir, src = tmp_path / "jobs", tmp_path / "src"
    src.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(jobs_dir), str(src)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        manager = manager_for(container, jobs_dir, src)
        running, started = manager.start()
        assert not started and running.status == "running" and running.trigger == "cli"
        assert manager.recent()[0].status == "running"  # alive: the lock is held
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()

    [dead] = manager.recent()
    assert dead.id == running.id and dead.status == "interrupted"
    assert "stopped before it finished" in dead.errors[-1]

    job, started = manager.run(trigger="cli")
    assert started and job.status == "succeeded" and job.files == 0
    assert {j.id: j.status for j in manager.recent()} == {
        running.id: "interrupted",
        job.id: "succeeded",
    }
    # The interruption is now written down, not only inferred.
    lines = (jobs_dir / "jobs.jsonl").read_text(encoding="utf-8").splitlines()
    assert sum('"interrupted"' in line for line in lines) == 1
