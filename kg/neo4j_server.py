"""A local Neo4j Community + GDS + APOC server run from the Maven Central jars, for machines
without Docker (these machines, CI): ``kg neo4j start|stop|status`` and ``make test``.

The jars come from ``tools/neo4j/pom.xml`` (``make neo4j-jars``) into ``tools/neo4j/lib`` and
``tools/neo4j/plugins``. The server's home is ``<data dir>/neo4j`` (conf, data, logs, pid file);
its Bolt port is the one in ``KG_NEO4J__URI``, so client and server cannot disagree. Production
with Docker uses docker-compose.yml instead (docs/production-neo4j.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator

from core.errors import ConfigError, StoreError

ROOT = Path(__file__).resolve().parent.parent
JARS = ROOT / "tools" / "neo4j"

# What Neo4j 5.26's own launcher passes (its default neo4j.conf ``server.jvm.additional`` lines
# plus the bootloader's encoding); the --add-opens are needed on Java 17 by Neo4j's off-heap
# memory and I/O code, -Dio.netty... by Bolt's transport.
JVM_FLAGS = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-XX:+UnlockDiagnosticVMOptions",
    "-XX:+DebugNonSafepoints",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dlog4j.layout.jsonTemplate.maxStringLength=32768",
    "-Dfile.encoding=UTF-8",
)
ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
READY_QUERY = "RETURN gds.version() AS gds, apoc.version() AS apoc"


class Neo4jServerSettings(BaseModel):
    """The local server's own knobs (``KG_NEO4J_SERVER__*``); address and password come from
    ``KG_NEO4J__URI`` / ``KG_NEO4J__PASSWORD``."""

    # Small on purpose: the machines are shared (2 cores, 24 GiB, several processes); the
    # test and demo graphs are a few thousand nodes. Raise both for a real corpus.
    heap: str = "1g"
    page_cache: str = "512m"
    # Neo4j Browser and the HTTP API on loopback; 0 turns the HTTP connector off.
    http_port: int = Field(default=7474, ge=0, le=65535)
    start_timeout_s: float = Field(default=120.0, gt=0)
    stop_timeout_s: float = Field(default=60.0, gt=0)
    jars_dir: Path = JARS

    @field_validator("jars_dir")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        """Resolved against the directory the setting was given in: the server runs in its own
        home, where a relative class path names nothing (ClassNotFoundException at start)."""
        return value.expanduser().resolve()


@dataclass(frozen=True)
class ServerStatus:
    running: bool
    pid: int | None
    home: Path
    bolt: str
    versions: tuple[str, str] | None = None  # (GDS, APOC) when the server answered

    def describe(self) -> str:
        if not self.running:
            return f"neo4j: not running (home {self.home})"
        answered = (
            f", GDS {self.versions[0]}, APOC {self.versions[1]}"
            if self.versions
            else ", not answering on Bolt yet"
        )
        return f"neo4j: running, pid {self.pid}, {self.bolt}{answered} (home {self.home})"


class LocalNeo4j:
    """One local server under ``home``; no I/O until a method is called."""

    def __init__(
        self, home: Path, uri: str, user: str, password: str, cfg: Neo4jServerSettings
    ) -> None:
        self.home = home.resolve()
        self.uri, self.user, self.password, self.cfg = uri, user, password, cfg
        parts = urlsplit(uri)
        self.host = parts.hostname or "127.0.0.1"
        self.bolt_port = parts.port or 7687
        self.pid_file = self.home / "run" / "neo4j.pid"
        self.log_file = self.home / "logs" / "console.log"

    # -- public -------------------------------------------------------------------------
    def start(self) -> ServerStatus:
        """Start the server unless it runs, and wait until Bolt answers with GDS and APOC."""
        self._check_ready_to_start()
        pid = self._pid()
        if pid is None:
            self._write_conf()
            if _port_taken(self.host, self.bolt_port):
                raise StoreError(
                    f"port {self.bolt_port} on {self.host} is in use by another process; "
                    "set KG_NEO4J__URI to a free port"
                )
            pid = self._spawn()
        versions = self._await_ready(pid)
        return ServerStatus(True, pid, self.home, self.uri, versions)

    def stop(self) -> bool:
        """SIGTERM (Neo4j shuts down cleanly on it) and wait for the exit; False if not running."""
        pid = self._pid()
        if pid is None:
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + self.cfg.stop_timeout_s
        while _alive(pid):
            if time.monotonic() > deadline:
                raise StoreError(
                    f"neo4j (pid {pid}) did not stop within {self.cfg.stop_timeout_s:.0f}s "
                    f"of SIGTERM; see {self.log_file}"
                )
            time.sleep(0.2)
        self.pid_file.unlink(missing_ok=True)
        return True

    def status(self) -> ServerStatus:
        pid = self._pid()
        if pid is None:
            return ServerStatus(False, None, self.home, self.uri)
        try:
            versions = self._query_versions()
        except Exception:  # any failure only means "not answering yet"
            versions = None
        return ServerStatus(True, pid, self.home, self.uri, versions)

    # -- start-up -----------------------------------------------------------------------
    def _check_ready_to_start(self) -> None:
        lib, plugins = self.cfg.jars_dir / "lib", self.cfg.jars_dir / "plugins"
        if not all(
            any((self.cfg.jars_dir / d).glob("*.jar")) for d in ("lib", "plugins", "plugin-lib")
        ):
            raise ConfigError(
                f"no Neo4j jars in {lib} and {plugins}: run `make neo4j-jars` "
                "(Maven resolves Neo4j, GDS and APOC from Maven Central)"
            )
        if len(self.password) < 8:
            raise ConfigError("KG_NEO4J__PASSWORD must be set, 8 characters or more")
        if self.host not in ("127.0.0.1", "localhost"):
            raise ConfigError(f"the local server listens on loopback only, not {self.host}")

    def _write_conf(self) -> None:
        for sub in ("conf", "data", "logs", "run", "import", "licenses"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        http = self.cfg.http_port
        lines = [
            "# Written by kg neo4j start (kg/neo4j_server.py) on every start; edits are lost.",
            f"server.directories.data={self.home / 'data'}",
            f"server.directories.logs={self.home / 'logs'}",
            f"server.directories.run={self.home / 'run'}",
            f"server.directories.import={self.home / 'import'}",
            f"server.directories.licenses={self.home / 'licenses'}",
            f"server.directories.plugins={self.cfg.jars_dir / 'plugins'}",
            f"server.directories.lib={self.cfg.jars_dir / 'lib'}",
            "server.default_listen_address=127.0.0.1",
            "server.default_advertised_address=127.0.0.1",
            "server.bolt.enabled=true",
            f"server.bolt.listen_address=127.0.0.1:{self.bolt_port}",
            "server.bolt.tls_level=DISABLED",
            f"server.http.enabled={'true' if http else 'false'}",
            f"server.http.listen_address=127.0.0.1:{http or 7474}",
            "server.https.enabled=false",
            "dbms.security.auth_enabled=true",
            "dbms.security.procedures.unrestricted=gds.*,apoc.*",
            f"server.memory.heap.initial_size={self.cfg.heap}",
            f"server.memory.heap.max_size={self.cfg.heap}",
            f"server.memory.pagecache.size={self.cfg.page_cache}",
            "db.tx_log.rotation.retention_policy=1 files",
            "server.logs.gc.enabled=false",
            "dbms.usage_report.enabled=false",
            "server.jvm.additional=-XX:+ExitOnOutOfMemoryError",
        ]
        (self.home / "conf" / "neo4j.conf").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def _command(self) -> list[str]:
        jars = self.cfg.jars_dir
        # Plugins on the class path as Neo4j's own launcher does: GDS registers its extension
        # through ServiceLoader, which only sees the class path. lib/ first: server classes win;
        # plugin-lib/ holds the plugins' third-party libraries (class path only, never scanned).
        classpath = f"{jars / 'lib'}/*:{jars / 'plugins'}/*:{jars / 'plugin-lib'}/*"
        return [
            "java",
            f"-Xms{self.cfg.heap}",
            f"-Xmx{self.cfg.heap}",
            "-XX:+ExitOnOutOfMemoryError",
            *JVM_FLAGS,
            "-cp",
            classpath,
            ENTRY_POINT,
            f"--home-dir={self.home}",
            f"--config-dir={self.home / 'conf'}",
            "--console-mode",
        ]

    def _spawn(self) -> int:
        env = dict(os.environ, NEO4J_HOME=str(self.home), NEO4J_CONF=str(self.home / "conf"))
        with self.log_file.open("ab") as log:
            proc = subprocess.Popen(
                self._command(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.home,
                env=env,
                start_new_session=True,  # Ctrl-C in the starting shell does not reach it
            )
        self.pid_file.write_text(f"{proc.pid}\n", encoding="utf-8")
        return proc.pid

    def _await_ready(self, pid: int) -> tuple[str, str]:
        deadline = time.monotonic() + self.cfg.start_timeout_s
        last: Exception | None = None
        while time.monotonic() < deadline:
            if not _alive(pid):
                self.pid_file.unlink(missing_ok=True)
                raise StoreError(f"neo4j exited during start-up:\n{self._log_tail()}")
            try:
                return self._query_versions()
            except ConfigError:
                raise
            except Exception as exc:  # not listening yet, or still starting its databases
                last = exc
                time.sleep(0.5)
        raise StoreError(
            f"neo4j did not answer {READY_QUERY!r} on {self.uri} within "
            f"{self.cfg.start_timeout_s:.0f}s (last: {last}):\n{self._log_tail()}"
        )

    def _query_versions(self) -> tuple[str, str]:
        import neo4j
        from neo4j.exceptions import AuthError

        # session.run, not execute_query: one attempt per poll, where execute_query would
        # retry with back-off for up to 30 s and overshoot the moment the server is up.
        try:
            with (
                neo4j.GraphDatabase.driver(
                    self.uri, auth=(self.user, self.password), connection_timeout=2.0
                ) as d,
                d.session(database="neo4j") as s,
            ):
                row = s.run(READY_QUERY).single(strict=True)
        except AuthError:
            self._set_initial_password()
            return self._query_versions()
        return str(row["gds"]), str(row["apoc"])

    def _set_initial_password(self) -> None:
        """A fresh server's only user is neo4j/neo4j, which must change its password before
        anything else; a server whose password was changed otherwise is refused clearly."""
        import neo4j
        from neo4j.exceptions import AuthError

        try:
            with (
                neo4j.GraphDatabase.driver(self.uri, auth=(self.user, "neo4j")) as d,
                d.session(database="system") as s,
            ):
                s.run(
                    "ALTER CURRENT USER SET PASSWORD FROM 'neo4j' TO $password",
                    {"password": self.password},
                ).consume()
        except AuthError as exc:
            raise ConfigError(
                f"the server in {self.home} has a different password than KG_NEO4J__PASSWORD; "
                f"set that one, or stop it and delete {self.home / 'data'}"
            ) from exc

    # -- helpers ------------------------------------------------------------------------
    def _pid(self) -> int | None:
        """The pid in the pid file if that process is our server, else None (stale file)."""
        try:
            pid = int(self.pid_file.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            return None
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            cmdline = ""
        if not _alive(pid) or ENTRY_POINT not in cmdline or str(self.home) not in cmdline:
            self.pid_file.unlink(missing_ok=True)
            return None
        return pid

    def _log_tail(self, lines: int = 30) -> str:
        texts = []
        for f in (
            self.log_file,
            self.home / "logs" / "neo4j.log",
            self.home / "logs" / "debug.log",
        ):
            if f.exists():
                tail = f.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
                texts.append(f"--- {f} (last {len(tail)} lines)\n" + "\n".join(tail))
        return "\n".join(texts) or f"(no log in {self.home / 'logs'})"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (our own child that exited) still answers kill(0).
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def _port_taken(host: str, port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex((host if host != "localhost" else "127.0.0.1", port)) == 0
