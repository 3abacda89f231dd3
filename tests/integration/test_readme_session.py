"""The README's "A first session", run literally on a fresh data dir.

The first fenced ``bash`` block under that heading is split into commands (here-documents and
backslash continuations kept whole) and run in order in an empty temporary folder: ``export``
lines set the environment of the commands after them, ``kg ...`` lines run as
``python -m kg.cli ...`` with this interpreter (the README's ``. .venv/bin/activate`` line is
what makes ``kg`` that command), every other line runs in bash. Each must exit 0. The session
runs on the embedder a plain install gets (``onnx``), whatever the suite's default.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
HEADING = "## A first session"


def bash_blocks(text: str, heading: str) -> list[str]:
    """The ```bash blocks between ``heading`` and the next level-2 heading."""
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    section = text[start : end if end != -1 else len(text)]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.DOTALL)
    assert blocks, f"no bash block under {heading!r} in README.md"
    return blocks


def session_block(text: str) -> str:
    return bash_blocks(text, HEADING)[0]


def serve_line(text: str) -> list[str]:
    """The session's `kg serve` line (its own block: it runs until stopped)."""
    for block in bash_blocks(text, HEADING)[1:]:
        for line in block.splitlines():
            if line.startswith("kg serve"):
                return shlex.split(line.split("#")[0])
    raise AssertionError("no `kg serve` line under the first session")


def api_bodies(text: str) -> dict[str, dict[str, object]]:
    """The JSON bodies of the README's curl examples, by route."""
    block = "\n".join(bash_blocks(text, "## The HTTP API"))
    block = block.replace("\\\n", " ")
    found = re.findall(r"curl -s \$API(/v1/\w+) .*?-d '([^']*)'", block)
    return {route: json.loads(body) for route, body in found}


def commands(block: str) -> list[str]:
    """Shell commands of a block: a here-document runs to its terminator line, a line ending
    in a backslash continues on the next."""
    out: list[str] = []
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + " " + lines[i].strip()
            i += 1
        heredoc = re.search(r"<<-?\s*'?\"?(\w+)'?\"?", line)
        if heredoc:
            body = []
            while i < len(lines) and lines[i].strip() != heredoc.group(1):
                body.append(lines[i])
                i += 1
            i += 1  # the terminator
            line = "\n".join([line, *body, heredoc.group(1)])
        out.append(line)
    return out


def test_the_block_is_found_and_split() -> None:
    text = README.read_text(encoding="utf-8")
    assert serve_line(text)[:2] == ["kg", "serve"]
    assert {"/v1/search", "/v1/ask"} <= set(api_bodies(text))
    cmds = commands(session_block(text))
    kinds = [c.split()[0] for c in cmds]
    assert kinds.count("kg") >= 4  # ingest, stats, search, ask at least
    heredocs = [c for c in cmds if "<<" in c]
    assert all(c.rstrip().endswith("EOF") for c in heredocs)


@pytest.mark.slow
def test_the_first_session_runs_as_written(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    env["KG_EMBEDDING__BACKEND"] = "onnx"  # what `make demo` installs
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    outputs: dict[str, str] = {}
    for cmd in commands(session_block(README.read_text(encoding="utf-8"))):
        words = shlex.split(cmd) if "<<" not in cmd else ["(heredoc)"]
        if words[0] in (".", "source"):
            continue  # the venv's activation: `kg` here is this interpreter's kg.cli
        if words[0] == "export":
            for assignment in words[1:]:
                key, _, value = assignment.partition("=")
                env[key] = value
            continue
        if words[0] == "kg":
            argv = [sys.executable, "-m", "kg.cli", *words[1:]]
            done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True)
        else:
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", cmd],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
            )
        assert done.returncode == 0, f"{cmd!r} exited {done.returncode}:\n{done.stderr[-2000:]}"
        outputs[cmd] = done.stdout
    # The session built its own store where it said, from its own document, and answered.
    data_dir = tmp_path / env["KG_DATA_DIR"]
    assert data_dir.is_dir()
    stats = next(out for cmd, out in outputs.items() if cmd.startswith("kg stats"))
    assert re.search(r"documents:\s+1\b", stats), stats
    searches = [out for cmd, out in outputs.items() if cmd.startswith("kg search")]
    assert searches and all("Acme Widgets Board Update" in out for out in searches), searches
    answer = next(out for cmd, out in outputs.items() if cmd.startswith("kg ask"))
    assert "Jonas Whitfield" in answer, answer
    check_the_api_examples(tmp_path, env)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check_the_api_examples(cwd: Path, env: dict[str, str]) -> None:
    """`kg serve` on the session's store, then the README's search and ask bodies posted."""
    text = README.read_text(encoding="utf-8")
    words = serve_line(text)
    port = free_port()
    env = env | {"KG_API__PORT": str(port)}
    server = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", *words[1:]],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    api = f"http://127.0.0.1:{port}"
    try:
        ready = False
        for _ in range(600):  # bounded: a server that never becomes ready fails the test
            if server.poll() is not None:
                raise AssertionError(f"kg serve exited: {server.stderr.read()[-2000:]}")
            try:
                ready = httpx.get(f"{api}/readyz", timeout=5).status_code == 200
            except httpx.TransportError:
                ready = False
            if ready:
                break
            time.sleep(0.5)
        assert ready, "kg serve never answered /readyz"
        bodies = api_bodies(text)
        found = httpx.post(f"{api}/v1/search", json=bodies["/v1/search"], timeout=120)
        assert found.status_code == 200, found.text
        titles = [r["document_title"] for r in found.json()["results"]]
        assert "Acme Widgets Board Update" in titles, found.json()
        asked = httpx.post(f"{api}/v1/ask", json=bodies["/v1/ask"], timeout=300)
        assert asked.status_code == 200, asked.text
        assert "Jonas Whitfield" in json.dumps(asked.json()), asked.json()
    finally:
        server.terminate()
        server.wait(timeout=60)
