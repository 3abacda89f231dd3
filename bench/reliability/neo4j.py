"""Reliability on Neo4j (issue 16): the crash check's store as a Neo4j server that this run
starts itself, the server stopped under a running ingest, and the API while it is away.

The server is a local Neo4j + GDS + APOC from the Maven jars (``kg.neo4j_server``) under its
own home and Bolt port; it holds one database, which is wiped between runs through the
``GraphStore`` port (every document deleted, then every count checked to be zero).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.reliability.crash import complete, start_ingest
from bench.reliability.digest import GraphDigest, graph_digest
from core.errors import KgError
from graph_store.config import Neo4jSettings
from graph_store.port import GraphStore
from kg.container import build
from kg.neo4j_server import JARS, LocalNeo4j, Neo4jServerSettings
from kg.settings import Settings

PASSWORD = "kg-first-test"
QUESTION = "Which journal publishes mathematical physics?"


@dataclass(frozen=True)
class Neo4jBackend:
    """A local server at ``uri`` with its files under ``home`` (``crash.Backend``)."""

    uri: str
    home: Path
    password: str = PASSWORD
    jars_dir: Path = JARS

    @property
    def name(self) -> str:
        return "neo4j"

    def server(self) -> LocalNeo4j:
        cfg = Neo4jServerSettings(http_port=0, jars_dir=self.jars_dir)
        return LocalNeo4j(self.home, self.uri, "neo4j", self.password, cfg)

    def settings(self, data_dir: Path, **extra: Any) -> Settings:
        neo4j = Neo4jSettings(uri=self.uri, password=self.password)
        return Settings(data_dir=data_dir, store="neo4j", neo4j=neo4j, **extra)

    def env(self, data_dir: Path) -> dict[str, str]:
        return {
            "KG_STORE": "neo4j",
            "KG_DATA_DIR": str(data_dir),
            "KG_NEO4J__URI": self.uri,
            "KG_NEO4J__USER": "neo4j",
            "KG_NEO4J__PASSWORD": self.password,
        }

    def open_store(self, data_dir: Path) -> GraphStore:
        store = build(self.settings(data_dir)).store
        store.open()
        return store

    def reset(self, data_dir: Path) -> None:
        shutil.rmtree(data_dir, ignore_errors=True)  # run markers of an earlier run
        store = self.open_store(data_dir)
        try:
            wipe(store)
        finally:
            store.close()

    def digest(self, data_dir: Path) -> GraphDigest:
        store = self.open_store(data_dir)
        try:
            return graph_digest(store)
        finally:
            store.close()

    def committed(self, data_dir: Path) -> int:
        try:
            store = self.open_store(data_dir)
        except KgError:
            return -1
        try:
            return store.counts().documents
        except KgError:
            return -1
        finally:
            store.close()


def wipe(store: GraphStore) -> None:
    """Delete every document (and with them chunks, mentions, orphaned entities and aliases);
    anything left over is a defect of deletion, so it stops the run."""
    ids: list[str] = []
    while page := store.list_documents(len(ids), 500):
        ids += [d.id for d in page]
    store.delete_documents(ids)
    left = {k: v for k, v in store.counts().as_dict().items() if v}
    if left:
        raise RuntimeError(f"deleting all {len(ids)} documents left {left}")


def stop_mid_ingest(
    backend: Neo4jBackend,
    work: Path,
    corpus: Path,
    clean: GraphDigest,
    batch: int,
    log: Any = print,
) -> dict[str, Any]:
    """``kg ingest`` running, the server stopped (SIGTERM) once a batch has committed: the
    CLI must exit non-zero with one ``error:`` line and no traceback; after a restart a
    rerun must give the clean build's graph."""
    data = work / "stop"
    backend.reset(data)
    server = backend.server()
    proc = start_ingest(backend, data, corpus, batch)
    watcher = backend.open_store(data)
    try:
        deadline = time.monotonic() + 600
        while proc.poll() is None and time.monotonic() < deadline:
            if watcher.counts().documents >= batch:
                break
            time.sleep(0.2)
        committed = watcher.counts().documents
    finally:
        watcher.close()
    running = proc.poll() is None
    t0 = time.perf_counter()
    server.stop()
    stop_s = time.perf_counter() - t0
    try:
        _, raw = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, raw = proc.communicate()
    exit_s = time.perf_counter() - t0
    stderr = raw.decode(errors="replace")
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    t1 = time.perf_counter()
    server.start()
    restart_s = time.perf_counter() - t1
    rerun_s, _ = complete(backend, data, corpus, batch)
    identical = backend.digest(data) == clean
    log(
        f"neo4j stop: {committed} documents committed, ingest running={running}; server "
        f"stopped in {stop_s:.1f}s, CLI exit {proc.returncode} {exit_s:.1f}s after the stop "
        f"with {len(errors)} error line(s) {errors[:1]}; restart {restart_s:.0f}s, rerun "
        f"{rerun_s:.0f}s, identical={identical}"
    )
    return {
        "neo4j_stop_documents_at_stop": committed,
        "neo4j_stop_ingest_running": running,
        "neo4j_stop_server_seconds": round(stop_s, 1),
        "neo4j_stop_cli_exit_code": proc.returncode,
        "neo4j_stop_cli_exit_seconds": round(exit_s, 1),
        # The CLI's exit after the server's own (stop() returns when the JVM has exited).
        "neo4j_stop_cli_exit_after_server_s": round(exit_s - stop_s, 1),
        "neo4j_stop_cli_error_lines": len(errors),
        "neo4j_stop_cli_error": errors[0] if errors else "",
        "neo4j_stop_cli_traceback": "Traceback (most recent call last)" in stderr,
        "neo4j_stop_restart_seconds": round(restart_s, 1),
        "neo4j_stop_rerun_seconds": round(rerun_s, 1),
        "neo4j_stop_rerun_identical": identical,
    }


@contextmanager
def _quiet(name: str) -> Iterator[None]:
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _probe(client: httpx.Client, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        response = client.request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        return {
            "request": f"{method} {path}",
            "status": type(exc).__name__,
            "seconds": round(time.perf_counter() - start, 2),
        }
    return {
        "request": f"{method} {path}",
        "status": response.status_code,
        "problem_json": response.headers.get("content-type", "").startswith(
            "application/problem+json"
        ),
        "seconds": round(time.perf_counter() - start, 2),
    }


def _requests() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        ("GET", "/v1/stats", {}),
        ("POST", "/v1/search", {"json": {"question": QUESTION, "k": 5}}),
        ("POST", "/v1/ask", {"json": {"question": QUESTION, "max_iterations": 1}}),
        ("GET", "/v1/entities", {"params": {"q": "journal"}}),
        ("POST", "/v1/cypher", {"json": {"query": "MATCH (d:Document) RETURN count(d) AS n"}}),
        ("GET", "/readyz", {}),
    ]


def api_outage(backend: Neo4jBackend, client: httpx.Client, log: Any = print) -> dict[str, Any]:
    """``client`` speaks to one API process on the server's graph: every kind of request is
    answered, then the server is stopped (each request must be a quick 503 problem+json),
    then started again (the same process must answer 200 without being restarted)."""
    server = backend.server()
    before = [_probe(client, m, p, **kw) for m, p, kw in _requests()]
    t0 = time.perf_counter()
    server.stop()
    stop_s = time.perf_counter() - t0
    with _quiet("kg.api"):  # one logged traceback per 503: the cause, expected here
        down = [_probe(client, m, p, **kw) for m, p, kw in _requests()]
    t1 = time.perf_counter()
    server.start()
    started_s = time.perf_counter() - t1
    # The pool may still hold connections to the old server process; polling shows how soon
    # the same API process answers again by itself.
    first_ok = None
    polls = 0
    while time.perf_counter() - t1 < started_s + 120:
        polls += 1
        if client.get("/v1/stats").status_code == 200:
            first_ok = time.perf_counter() - t1
            break
        time.sleep(0.25)
    after = [_probe(client, m, p, **kw) for m, p, kw in _requests()]
    down_503 = [d for d in down if d["status"] == 503 and d.get("problem_json")]
    log(
        f"neo4j api: before {[d['status'] for d in before]}; server stopped in {stop_s:.1f}s; "
        f"down {[(d['status'], d['seconds']) for d in down]}; started in {started_s:.0f}s, "
        f"first 200 {'never' if first_ok is None else f'at {first_ok:.1f}s'} after {polls} "
        f"poll(s); after {[d['status'] for d in after]}"
    )
    return {
        "neo4j_api_before_statuses": [d["status"] for d in before],
        "neo4j_api_down_requests": len(down),
        "neo4j_api_down_503_problem_json": len(down_503),
        "neo4j_api_down_max_seconds": max(d["seconds"] for d in down),
        "neo4j_api_down_details": down,
        "neo4j_api_restart_seconds": round(started_s, 1),
        "neo4j_api_recovered_seconds": None if first_ok is None else round(first_ok, 1),
        "neo4j_api_recovered_after_start_seconds": (
            None if first_ok is None else round(first_ok - started_s, 1)
        ),
        "neo4j_api_after_statuses": [d["status"] for d in after],
    }
