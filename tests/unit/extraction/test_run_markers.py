from __future__ import annotations

from pathlib import Path

from extraction.run_markers import RunMarkers


def test_a_completed_call_leaves_nothing_behind(tmp_path: Path) -> None:
    runs = RunMarkers(tmp_path / "runs")
    assert runs.leftover() == set()  # no directory yet: nothing to read, nothing created
    marker = runs.start(["d1", "d2"])
    assert runs.leftover() == {"d1", "d2"}
    runs.finish(marker, {"d1", "d2"})
    assert runs.leftover() == set()


def test_a_later_call_takes_what_it_redid_off_older_markers(tmp_path: Path) -> None:
    runs = RunMarkers(tmp_path / "runs")
    runs.start(["d1", "d2", "d3"])  # a call that died
    mine = runs.start(["d2", "d4"])
    runs.finish(mine, {"d2", "d4"})
    assert runs.leftover() == {"d1", "d3"}
    last = runs.start(["d1", "d3"])
    runs.finish(last, {"d1", "d3"})
    assert runs.leftover() == set() and not list((tmp_path / "runs").iterdir())


def test_a_torn_marker_names_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "dead.json").write_text('["d1", "d', encoding="utf-8")
    assert RunMarkers(folder).leftover() == set()
