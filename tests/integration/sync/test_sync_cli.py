"""``kg sync`` as an operator runs it: a real process, a real store in a temp dir."""

from __future__ import annotations

import json
from pathlib import Path

from tests.integration.sync.conftest import kg, write_docs


def test_sync_twice_then_a_bad_file(tmp_path: Path) -> None:
    src, data = tmp_path / "src", tmp_path / "kg"
    write_docs(src, 0, 3)
    first = kg(data, "sync", str(src), "--json")
    assert first.returncode == 0, first.stderr
    job = json.loads(first.stdout)
    assert (job["status"], job["trigger"], job["added"], job["files"]) == ("succeeded", "cli", 3, 3)

    (src / "report-001.md").unlink()
    (src / "broken.md").write_bytes(b"\xff\xfe\x00\x00binary")
    second = kg(data, "sync", str(src))
    assert second.returncode == 0, second.stderr  # one bad file does not fail the run
    assert "partial" in second.stdout and "1 removed" in second.stdout
    assert "2 unchanged" in second.stdout and "1 failed" in second.stdout
    assert "broken.md" in second.stderr


def test_sync_without_directories_says_how_to_name_them(tmp_path: Path) -> None:
    missing = kg(tmp_path / "kg", "sync")
    assert missing.returncode == 1
    assert "KG_SYNC__DIRS" in missing.stderr

    only_bad = tmp_path / "bad"
    only_bad.mkdir()
    (only_bad / "empty.md").write_text("", encoding="utf-8")
    failed = kg(tmp_path / "kg", "sync", "--json", KG_SYNC__DIRS=str(only_bad))
    assert failed.returncode == 1
    job = json.loads(failed.stdout)
    assert job["status"] == "partial"
    assert job["errors"] == [f"{only_bad / 'empty.md'}: file is empty"]
