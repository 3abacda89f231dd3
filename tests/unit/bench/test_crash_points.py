"""Where the crash check kills: after observed commits, spread over the whole write phase."""

from __future__ import annotations

import json

from bench.reliability.crash import commits_in, kill_points


def test_kills_spread_over_the_writes_after_the_first_commit_and_before_the_last() -> None:
    points = kill_points(12, 10)
    assert points == sorted(points) and points[0] == 1 and points[-1] == 11
    assert len(set(points)) == 10
    assert all(1 <= p <= 11 for p in kill_points(3, 10))  # more kills than gaps: clamped
    assert kill_points(1, 2) == [1, 1]  # one batch: nothing to kill between, still after it


def test_commits_are_counted_from_the_write_progress_lines() -> None:
    lines = [
        json.dumps({"phase": "extract", "done": 64, "total": 100}),
        json.dumps({"phase": "write", "done": 25, "total": 100}),
        "error: something else on stderr",
        json.dumps({"phase": "write", "done": 50, "total": 100}),
    ]
    assert commits_in("\n".join(lines)) == 2
