"""``kg serve`` starts the API in its own process and shuts down gracefully on SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.conftest import ROOT


def test_kg_serve_answers_then_stops(tmp_path: Path) -> None:
    env = {**os.environ, "KG_DATA_DIR": str(tmp_path / "kg"), "KG_API_KEYS": ""}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg.cli", "serve", "--host", "127.0.0.1", "--port", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        port = None
        deadline = time.monotonic() + 120
        lines = []
        while port is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            found = re.search(r"Uvicorn running on http://127\.0\.0\.1:(\d+)", line)
            port = int(found.group(1)) if found else None
        assert port, "".join(lines)
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/healthz").json() == {"status": "ok"}
        assert httpx.get(f"{base}/readyz").status_code == 200
        assert httpx.get(f"{base}/v1/stats").json()["documents"] == 0
    finally:
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=60)
    # uvicorn shuts down gracefully, then re-raises the signal it caught.
    assert proc.returncode in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in rest
