"""The local LLM server's state is kept per port: two models served side by side stop apart."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg.llm_server import LlmServerSettings, state_path, status, stop


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[dict[int, subprocess.Popen[bytes]]]:
    """Two long-running processes recorded as if ``serve`` had started them on two ports
    (a real model server is what tests/llm starts; here only the bookkeeping is tested)."""
    procs = {
        port: subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        for port in (18765, 18766)
    }
    for port, proc in procs.items():
        state_path(tmp_path, port).write_text(
            json.dumps({"pid": proc.pid, "model": f"model-{port}", "port": port})
        )
    yield procs
    for proc in procs.values():
        proc.kill()
        proc.wait()


def test_stopping_one_port_leaves_the_other_running(
    tmp_path: Path, two_servers: dict[int, subprocess.Popen[bytes]]
) -> None:
    first = LlmServerSettings(port=18765)
    second = LlmServerSettings(port=18766)
    assert status(tmp_path, first)["model"] == "model-18765"
    assert status(tmp_path, second)["model"] == "model-18766"

    assert stop(tmp_path, 18765)
    assert two_servers[18765].wait(timeout=10) is not None
    assert two_servers[18766].poll() is None  # the other model still runs
    assert status(tmp_path, second)["pid"] == two_servers[18766].pid
    assert not stop(tmp_path, 18765)  # already stopped: said, not raised

    assert stop(tmp_path, 18766)
    assert two_servers[18766].wait(timeout=10) is not None
    assert not state_path(tmp_path, 18766).exists()
