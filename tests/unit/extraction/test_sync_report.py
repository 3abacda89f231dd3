"""What a sync report turns into: job records, and which file a document uri belongs to."""

from __future__ import annotations

from datetime import UTC, datetime

from extraction.jobs import MAX_ERRORS, Job
from extraction.sync import SyncFailure, SyncReport, file_of


def _job() -> Job:
    return Job(
        id="sync-1", status="running", trigger="cli", dirs=["/d"], started_at=datetime.now(UTC)
    )


def test_corpus_passages_belong_to_their_json_file() -> None:
    assert file_of("/data/corpus.json#12") == "/data/corpus.json"
    assert file_of("/data/CORPUS.JSON#0") == "/data/CORPUS.JSON"
    assert file_of("/data/notes.md") == "/data/notes.md"
    # Only a JSON corpus has passages; a '#' elsewhere is part of the name.
    assert file_of("/data/a#1.md") == "/data/a#1.md"
    assert file_of("/data/x.md#3") == "/data/x.md#3"


def test_a_clean_run_succeeds_with_its_counts() -> None:
    report = SyncReport(
        files=4, added=["a", "b"], changed=["c"], reextracted=["d"], removed=["e"], unchanged=7
    )
    report.seconds = 1.23456
    job = _job().finished(report)
    assert job.status == "succeeded" and job.finished_at is not None
    assert (job.files, job.added, job.changed, job.reextracted, job.removed, job.unchanged) == (
        4,
        2,
        1,
        1,
        1,
        7,
    )
    assert job.failed == 0 and job.errors == [] and job.seconds == 1.235


def test_failures_make_a_partial_run_and_are_capped() -> None:
    failures = [SyncFailure(f"/d/{i}.md", "not valid UTF-8") for i in range(MAX_ERRORS + 5)]
    job = _job().finished(SyncReport(added=["a"], failed=failures))
    assert job.status == "partial" and job.failed == MAX_ERRORS + 5
    assert job.errors[0] == "/d/0.md: not valid UTF-8"
    assert len(job.errors) == MAX_ERRORS + 1 and job.errors[-1] == "... and 5 more"


def test_cancelled_and_failed_runs() -> None:
    assert _job().finished(SyncReport(cancelled=True, added=["a"])).status == "cancelled"
    failed = _job().ended("failed", "StoreError: disk full")
    assert failed.status == "failed" and failed.errors == ["StoreError: disk full"]
    assert failed.seconds is not None and failed.seconds >= 0


def test_records_round_trip_as_json_lines() -> None:
    job = _job().finished(SyncReport(added=["a"], failed=[SyncFailure("/d/x", "empty")]))
    line = job.model_dump_json()
    assert "\n" not in line
    assert Job.model_validate_json(line) == job
