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


def test_sync_follows_the_readme_rule_of_ingest(tmp_path: Path) -> None:
    """A folder's README is left out, and said so, as `kg ingest` does; a store built with
    KG_INGEST__INCLUDE_READMES keeps its README through a sync run with the same setting."""
    src, data = tmp_path / "src", tmp_path / "kg"
    write_docs(src, 0, 2)
    readme = src / "README.md"
    readme.write_text("# About these reports\n\nThe Harbour Board wrote them.\n", encoding="utf-8")

    plain = kg(data, "sync", str(src), "--json")
    assert plain.returncode == 0, plain.stderr
    job = json.loads(plain.stdout)
    assert (job["added"], job["files"], job["skipped"]) == (2, 2, [str(readme)])
    assert f"skipped: {readme}: README" in plain.stderr

    with_readmes = tmp_path / "kg-readmes"
    on = {"KG_INGEST__INCLUDE_READMES": "true"}
    ingested = kg(with_readmes, "ingest", str(src), **on)
    assert ingested.returncode == 0, ingested.stderr
    synced = kg(with_readmes, "sync", str(src), "--json", **on)
    assert synced.returncode == 0, synced.stderr
    job = json.loads(synced.stdout)
    assert (job["files"], job["removed"], job["unchanged"], job["skipped"]) == (3, 0, 3, [])
