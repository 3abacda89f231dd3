"""The `kg` command as a user runs it: a real process, a real store in a temp dir."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DEMO, FIXTURES

KG = [sys.executable, "-m", "kg.cli"]
DEMO_DOCUMENTS = json.loads((FIXTURES / "demo_expected.json").read_text())["documents"]


def run(
    data: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "KG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.run([*KG, *args], capture_output=True, text=True, env=full_env, timeout=600)


def stats(data: Path) -> dict[str, int]:
    r = run(data, "stats", "--json")
    assert r.returncode == 0, r.stderr
    out: dict[str, int] = json.loads(r.stdout)
    return out


def test_demo_ingest_is_idempotent_searchable_and_answerable(tmp_path: Path) -> None:
    data = tmp_path / "kg"
    first = run(data, "ingest", str(DEMO))
    assert first.returncode == 0, first.stderr
    n = DEMO_DOCUMENTS
    assert f"{n} added" in first.stdout
    counts = stats(data)
    assert counts["documents"] == n and counts["chunks"] > n and counts["aliases"] > n
    again = run(data, "ingest", str(DEMO))
    assert f"0 added, 0 updated, {n} unchanged" in again.stdout
    assert stats(data) == counts

    got = json.loads(run(data, "search", "out-of-area placements", "--k", "3", "--json").stdout)
    assert got["preset"] == "graph"
    found = got["results"]
    assert len(found) == 3
    assert {"chunk_id", "document_title", "text", "score"} <= set(found[0])
    assert any("Out-of-Area" in r["document_title"] for r in found)

    answer = json.loads(
        run(data, "ask", "What are NMHT's priorities for the next 12 months?", "--json").stdout
    )
    assert answer["citations"] and "No LLM" in answer["note"]
    for c in answer["citations"]:
        assert f"[{c['chunk_id']}]" in answer["answer"]

    graphml = tmp_path / "g.graphml"
    assert run(data, "export", "--format", "graphml", "--out", str(graphml)).returncode == 0
    import xml.dom.minidom

    assert xml.dom.minidom.parse(str(graphml)).getElementsByTagName("node")
    exported = json.loads(run(data, "export", "--format", "json").stdout)
    assert len([n for n in exported["nodes"] if n["label"] == "Chunk"]) == counts["chunks"]


def test_delete_document_by_title(tmp_path: Path) -> None:
    data = tmp_path / "kg"
    run(data, "ingest", str(DEMO))
    before = stats(data)
    r = run(data, "delete", "Horizon Ten National Health Plan 2025-2035")
    assert r.returncode == 0 and "deleted" in r.stdout
    after = stats(data)
    assert after["documents"] == before["documents"] - 1 and after["chunks"] < before["chunks"]
    assert run(data, "delete", "no such document").returncode == 1


def test_bad_inputs_each_named_and_good_files_still_ingested(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "good.md").write_text("# Good Doc\n\nThe Northdale Trust runs cafés.", encoding="utf-8")
    (src / "empty.md").write_text("")
    (src / "latin.txt").write_bytes("Title\n\ncaf\xe9".encode("latin-1"))
    (src / "broken.json").write_text('[{"title": "x", "text": ')
    (src / "ghost.md").symlink_to(src / "missing-target.md")
    unreadable = src / "locked.md"
    unreadable.write_text("# Locked\n\nsecret")
    unreadable.chmod(0)
    (src / "huge.txt").write_bytes(b"Huge\n\n" + b"word " * 300_000)  # 1.5 MB
    data = tmp_path / "kg"
    r = run(
        data,
        "ingest",
        str(src),
        str(tmp_path / "nowhere"),
        env={"KG_INGEST__MAX_FILE_BYTES": "1000000"},
    )
    assert r.returncode == 0, r.stderr  # something was ingested
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    expect = {
        "empty.md": "empty",
        "latin.txt": "UTF-8",
        "broken.json": "malformed JSON",
        "ghost.md": "cannot read",
        "huge.txt": "over the limit",
        "nowhere": "no such file",
    }
    for name, reason in expect.items():
        assert any(name in e and reason in e for e in errors), (name, errors)
    if os.geteuid() == 0:  # root reads a mode-000 file anyway
        assert stats(data)["documents"] == 2
    else:
        assert any("locked.md" in e and "cannot read" in e for e in errors), errors
        assert stats(data)["documents"] == 1
    # nothing usable at all -> non-zero exit
    bad = run(tmp_path / "kg2", "ingest", str(src / "empty.md"))
    assert bad.returncode == 1 and "empty" in bad.stderr


def test_large_file_within_limit_is_ingested_in_bounded_chunks(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    sentence = "The Northdale partnership publishes its plan every year. "
    big.write_text("Big Report\n\n" + sentence * 20_000)  # about 1.1 MB
    data = tmp_path / "kg"
    r = run(data, "ingest", str(big))
    assert r.returncode == 0, r.stderr
    assert stats(data)["chunks"] > 100


def _corpus(path: Path, n: int) -> None:
    passages = [
        {
            "title": f"Entity {i} Holdings",
            "text": f"Entity {i} Holdings (EH{i}) is a member of Group {i % 7}. "
            f"It provides services in Region {i % 11}. "
            f"Founded in {1900 + i}, it is led by Person {i}.",
        }
        for i in range(n)
    ]
    path.write_text(json.dumps(passages))


def _kill_after_commits(data: Path, corpus: Path, env: dict[str, str], commits: int) -> int:
    """Start ``kg ingest``, SIGKILL it once it reports ``commits`` committed write batches, and
    return the documents it reported committed. The kill follows what the ingest says it did,
    never a clock: it lands after a commit and long before the last (many batches remain)."""
    full_env = {**os.environ, "KG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1", **env}
    proc = subprocess.Popen(
        [*KG, "ingest", str(corpus), "--progress-json"],
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    seen, committed, total = 0, 0, 0
    try:
        for line in proc.stderr:  # ends when the process does (EOF)
            if not line.startswith("{"):
                continue
            step = json.loads(line)
            if step["phase"] == "write":
                seen, committed, total = seen + 1, step["done"], step["total"]
                if seen == commits:
                    break
    finally:
        proc.kill()  # SIGKILL: no clean-up possible
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert seen == commits, f"the ingest ended after {seen} commits: {proc.stderr.read()}"
    assert 0 < committed < total, "killed after the last commit"
    return committed


@pytest.mark.slow
def test_store_survives_a_kill_mid_ingest(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.json"
    n = 400
    _corpus(corpus, n)
    # 20 commits: batches kept at 20 (not grown with the store), so kills spread.
    batch = {"KG_INGEST__BATCH_DOCUMENTS": "20", "KG_INGEST__BATCH_GROWTH": "0"}
    clean = tmp_path / "clean"
    assert run(clean, "ingest", str(corpus), env=batch).returncode == 0

    killed = tmp_path / "killed"
    committed = _kill_after_commits(killed, corpus, batch, commits=3)
    partial = stats(killed)
    # What was reported committed survived the kill, and the ingest had not finished.
    assert committed <= partial["documents"] < n
    resumed = run(killed, "ingest", str(corpus), env=batch)
    assert resumed.returncode == 0, resumed.stderr
    assert stats(killed) == stats(clean)
