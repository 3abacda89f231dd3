from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from extraction.run_markers import RunMarkers


def _dead_marker(folder: Path, name: str, docs: list[str]) -> None:
    """A marker left by a process that has exited."""
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    folder.mkdir(parents=True, exist_ok=True)
    payload = {"pid": int(proc.stdout), "docs": docs}
    (folder / f"{name}.json").write_text(json.dumps(payload), encoding="utf-8")


def test_a_completed_call_leaves_nothing_behind(tmp_path: Path) -> None:
    runs = RunMarkers(tmp_path / "runs")
    assert runs.leftover() == set()  # no directory yet: nothing to read, nothing created
    marker = runs.start(["d1", "d2"])
    assert runs.leftover() == set()  # a running call's documents are never redone
    runs.finish(marker, {"d1", "d2"})
    assert runs.leftover() == set() and not list((tmp_path / "runs").iterdir())


def test_a_call_that_raised_leaves_its_documents_to_the_next(tmp_path: Path) -> None:
    runs = RunMarkers(tmp_path / "runs")
    marker = runs.start(["d1", "d2"])
    runs.release(marker)  # the call ended without finishing
    assert runs.leftover() == {"d1", "d2"}


def test_a_later_call_takes_what_it_redid_off_dead_markers(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    _dead_marker(folder, "dead", ["d1", "d2", "d3"])
    runs = RunMarkers(folder)
    assert runs.leftover() == {"d1", "d2", "d3"}
    mine = runs.start(["d2", "d4"])
    runs.finish(mine, {"d2", "d4"})
    assert runs.leftover() == {"d1", "d3"}
    last = runs.start(["d1", "d3"])
    runs.finish(last, {"d1", "d3"})
    assert runs.leftover() == set() and not list(folder.iterdir())


def test_a_live_process_marker_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) as other:
        try:
            payload = {"pid": other.pid, "docs": ["d1"]}
            (folder / "other.json").write_text(json.dumps(payload), encoding="utf-8")
            assert RunMarkers(folder).leftover() == set()
        finally:
            other.kill()
    assert RunMarkers(folder).leftover() == {"d1"}


def test_a_torn_marker_names_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "dead.json").write_text('{"pid": 1, "docs": ["d1", "d', encoding="utf-8")
    assert RunMarkers(folder).leftover() == set()


def test_a_call_that_failed_before_writing_leaves_nothing(tmp_path: Path) -> None:
    runs = RunMarkers(tmp_path / "runs")
    marker = runs.start(["d1"])
    runs.discard(marker)
    runs.release(marker)
    assert runs.leftover() == set()
