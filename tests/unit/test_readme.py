"""The README is a user's document and the demo install is small: checked on the files
themselves and on what `make -n` would run (nothing is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# docs/decisions holds the project's decision records, written by their own authors.
USER_DOCS = [README, *sorted(p for p in (ROOT / "docs").glob("*.md"))]

SECTIONS = [
    "## Prerequisites",
    "## The two commands",
    "## A first session",
    "## The document format",
    "## The HTTP API",
    "## Configuration",
    "## Production",
    "## Troubleshooting",
]


def test_the_readme_is_short_and_has_the_users_sections() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert [h for h in headings if h in SECTIONS] == SECTIONS  # all there, in this order


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: p.name)
def test_nothing_points_outside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text and "/work/" not in text
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        resolved = (doc.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{doc.name} links outside the repo: {target}"
        assert resolved.exists(), f"{doc.name} links to a missing file: {target}"


def dry_run(target: str, tmp_path: Path) -> str:
    """What `make <target>` would run on a fresh clone (a venv that does not exist yet)."""
    done = subprocess.run(
        ["make", "-n", target, f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_make_demo_installs_no_torch_and_needs_no_root(tmp_path: Path) -> None:
    demo = dry_run("demo", tmp_path)
    assert "pip install" in demo and "kg ingest demo" in demo
    assert "torch" not in demo  # PyPI's torch is the CUDA build: 6 GB for a CPU demo
    assert ".[" not in demo  # no extras
    assert "chromium" not in demo and "docker-compose" not in demo


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_make_test_keeps_its_own_tools_and_pinned_torch(tmp_path: Path) -> None:
    test = dry_run("test", tmp_path)
    assert "torch==2.13.0" in test
    assert '".[torch,dev]"' in test
    assert "chromium" in test and "docker-compose" in test


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_the_bench_targets_read_their_data_folder_from_a_variable(tmp_path: Path) -> None:
    bench = subprocess.run(
        ["make", "-n", "bench", f"VENV={tmp_path / 'venv'}", "BENCH_DATA=/data/multihop"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "M=/data/multihop;" in bench and "../shared" not in bench
