"""The `kg` command's errors as a newcomer meets them, in a real process on a real store: each
is one ``error:`` line that says what to do, and a command that only reads creates nothing."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

KG = [sys.executable, "-m", "kg.cli"]


def run(
    data: Path, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "KG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.run(
        [*KG, *args], capture_output=True, text=True, env=full_env, timeout=600, cwd=cwd
    )


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr and "╭" not in done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("variable", "value", "allowed"),
    [
        ("KG_STORE", "neo5j", "'embedded', 'falkordb' or 'neo4j'"),
        ("KG_INGEST__MAX_FILE_BYTES", "10", "greater than or equal to 1024"),
    ],
)
@pytest.mark.parametrize("command", [["stats"], ["serve", "--port", "0"]])
def test_invalid_setting_is_one_line_naming_it(
    tmp_path: Path, variable: str, value: str, allowed: str, command: list[str]
) -> None:
    done = run(tmp_path / "kg", *command, env={variable: value})
    assert done.returncode == 1
    line = one_error_line(done)
    assert f"{variable}='{value}'" in line and allowed in line


@pytest.mark.parametrize(
    "command", [["stats"], ["search", "anything"], ["ask", "anything?"], ["export"]]
)
def test_read_command_without_a_graph_says_how_to_make_one(
    tmp_path: Path, command: list[str]
) -> None:
    """What the README's first command met after `make demo`: the default data dir has no
    graph. The command says so, and leaves nothing behind."""
    data = tmp_path / "kg"
    done = run(data, *command, cwd=tmp_path)
    assert done.returncode == 1
    line = one_error_line(done)
    assert line == (
        f"error: no graph at {data}: run 'kg ingest <folder>' first, or set KG_DATA_DIR "
        "(make demo builds .kg/demo)"
    )
    assert not data.exists() and not (tmp_path / ".kg").exists()


def test_empty_store_search_and_ask_say_no_documents_yet(tmp_path: Path) -> None:
    """Right after `kg init` (or once the last document is deleted) the store is empty:
    search and ask answer so in one line, exit 0 (an empty store is not a failure), and
    ``--json`` stays JSON with empty results and a ``message``."""
    data = tmp_path / "kg"
    assert run(data, "init").returncode == 0
    expected = f"no documents yet in {data}: run 'kg ingest <folder>' first"
    for command in (["search", "anything"], ["ask", "anything?"]):
        done = run(data, *command)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == expected and "Traceback" not in done.stderr
    got = run(data, "search", "anything", "--json")
    import json

    assert json.loads(got.stdout) == {"question": "anything", "results": [], "message": expected}


@pytest.mark.slow
def test_store_held_by_serve_names_the_server(tmp_path: Path) -> None:
    data = tmp_path / "kg"
    assert run(data, "init").returncode == 0
    env = {**os.environ, "KG_DATA_DIR": str(data), "HF_HUB_OFFLINE": "1", "KG_API_KEYS": ""}
    server = subprocess.Popen(
        [*KG, "serve", "--host", "127.0.0.1", "--port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 300
        # Started once uvicorn says so: the lifespan (store open, holder recorded) ran first.
        while time.monotonic() < deadline:
            line = server.stdout.readline()
            lines.append(line)
            if not line or re.search(r"Uvicorn running on", line):
                break
        assert "Uvicorn running" in lines[-1], "".join(lines)
        done = run(data, "stats")
        assert done.returncode == 1
        line = one_error_line(done)
        assert f"is held by 'kg serve' (pid {server.pid}" in line
        assert f"stop it (kill {server.pid})" in line and "lock" not in line.lower()
        # `kg init --reset` would delete the files under the server: refused the same way.
        reset = run(data, "init", "--reset")
        assert reset.returncode == 1 and f"(pid {server.pid}" in one_error_line(reset)
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=120)
    assert not (data / "holder.json").exists(), "the server removes its record on exit"
    assert run(data, "stats").returncode == 0


def test_filters_take_a_folder_as_given_and_name_what_is_wrong(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "harbour.md").write_text(
        "# Harbour Board minutes\n\nDate: 2026-03-14\nType: minutes\n\n"
        "The Harbour Board funds the Lantern Project in Eastmere.\n",
        encoding="utf-8",
    )
    data = tmp_path / "kg"
    assert run(data, "ingest", str(notes)).returncode == 0
    question = "Who funds the Lantern Project?"
    for given in ("notes", "notes/", str(notes) + "/", "./notes"):
        done = run(data, "search", question, "--source", given, "--json", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        import json

        assert json.loads(done.stdout)["results"], given
    for args, says in (
        (["--from", "2026-13"], "2026-13"),
        (["--from", "2026-04", "--to", "2026-03-31"], "before it starts"),
        (["--type", "nonexistent"], "no document has type 'nonexistent'; types: 'minutes'"),
        (["--source", "elsewhere"], "no document has source 'elsewhere'"),
    ):
        done = run(data, "search", question, *args, cwd=tmp_path)
        assert done.returncode == 1, (args, done.stdout)
        assert says in one_error_line(done)
    nothing = run(data, "search", question, "--from", "2027", cwd=tmp_path)
    assert nothing.returncode == 0
    assert nothing.stdout.splitlines()[0] == "no results for these filters"


def test_a_folders_readme_is_skipped_with_a_line_or_ingested_on_request(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "README.md").write_text("# About these notes\n\nThe notes are invented.\n")
    (folder / "harbour.md").write_text("# Harbour note\n\nThe Harbour Board met in May.\n")
    done = run(tmp_path / "kg", "ingest", str(folder))
    assert done.returncode == 0, done.stderr
    assert f"skipped: {folder / 'README.md'}: README" in done.stdout
    assert "1 documents from 1 files: 1 added" in done.stdout
    env = {"KG_INGEST__INCLUDE_READMES": "true"}
    both = run(tmp_path / "kg2", "ingest", str(folder), env=env)
    assert "skipped:" not in both.stdout and "2 documents from 2 files: 2 added" in both.stdout
