"""``python -m bench.reliability.waits``: the load check on the embedded store, with where its
requests wait broken down: per route, the share of each request spent waiting for the store's
read lock (``graph_store/kuzu/rwlock.py``), and per exclusive section (commit, checkpoint,
full-text drop and rebuild, vector index build) how long it was held and how many reads it kept
waiting; the graph index rebuilds of the read model (``retrieval/index_cache.py``) and who
ran them.

Instrumentation only: it wraps methods of the store, the lock and the index cache in this
process, and runs ``bench.reliability.load`` against a server on a store of the demo corpus.
"""

from __future__ import annotations

import argparse
import contextvars
import functools
import json
import logging
import shutil
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from starlette.types import ASGIApp, Receive, Scope, Send

from api.app import create_app
from api.config import ApiSettings
from bench.reliability import crash, load
from bench.reliability.neo4j import Neo4jBackend, wipe
from graph_store.kuzu import rwlock
from graph_store.kuzu.store import KuzuGraphStore
from kg.container import build
from kg.settings import Settings
from retrieval import index_cache
from tests.integration.api.live import live_server

ROOT = Path(__file__).resolve().parents[2]

_request: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "kg_wait_request", default=None
)
_section = threading.local()


class _Record:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.holder = "-"  # the section of the exclusive hold of now
        self.last = "-"  # the section of the last exclusive hold
        self.sections: dict[str, list[float]] = defaultdict(list)  # hold ms
        self.drains: dict[str, list[float]] = defaultdict(list)  # ms to get the hold
        self.section_waiters: dict[str, list[float]] = defaultdict(list)  # read wait ms
        self.builds: list[tuple[str, float]] = []  # (route that ran it, ms)
        self.requests: dict[str, list[tuple[float, float]]] = defaultdict(list)  # (ms, wait)


REC = _Record()


def _label() -> str:
    stack: list[str] = getattr(_section, "stack", [])
    return stack[-1] if stack else "other"


def _labelled(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        stack = getattr(_section, "stack", None)
        if stack is None:
            stack = _section.stack = []
        stack.append(name)
        try:
            return fn(*args, **kwargs)
        finally:
            stack.pop()

    return wrapper


def _instrument() -> None:
    read, exclusive = rwlock.ReadWriteLock.read, rwlock.ReadWriteLock.exclusive

    @contextmanager
    def timed_read(self: rwlock.ReadWriteLock) -> Iterator[None]:
        start = time.perf_counter()
        with read(self):
            waited = (time.perf_counter() - start) * 1000
            if waited > 1:
                with REC.lock:  # released by now: the hold it waited for is the last one
                    held = REC.holder if REC.holder != "-" else REC.last
                    REC.section_waiters[held].append(waited)
                box = _request.get()
                if box is not None:
                    box["wait"] += waited
            yield

    @contextmanager
    def timed_exclusive(self: rwlock.ReadWriteLock) -> Iterator[None]:
        asked = time.perf_counter()
        with exclusive(self):
            outer = REC.holder
            REC.holder = _label()
            start = time.perf_counter()
            if outer == "-":  # how long the readers inside took to leave
                REC.drains[REC.holder].append((start - asked) * 1000)
            try:
                yield
            finally:
                if outer == "-":
                    REC.sections[REC.holder].append((time.perf_counter() - start) * 1000)
                    REC.last = REC.holder
                REC.holder = outer

    rwlock.ReadWriteLock.read = timed_read  # type: ignore[method-assign]
    rwlock.ReadWriteLock.exclusive = timed_exclusive  # type: ignore[method-assign]
    for name, label in (
        ("_drop_fulltext", "fulltext drop"),
        ("_ensure_fulltext", "fulltext rebuild"),
        ("_ensure_vectors", "vector index build"),
        ("_checkpoint", "checkpoint"),
        ("_in_transaction", "commit (+checkpoint)"),
    ):
        setattr(KuzuGraphStore, name, _labelled(label, getattr(KuzuGraphStore, name)))
    build_index = index_cache.GraphIndexCache._build

    def timed_build(self: index_cache.GraphIndexCache) -> Any:
        start = time.perf_counter()
        try:
            return build_index(self)
        finally:
            box = _request.get()
            with REC.lock:
                ms = (time.perf_counter() - start) * 1000
                REC.builds.append((box["route"] if box else "outside a request", ms))

    index_cache.GraphIndexCache._build = timed_build  # type: ignore[method-assign]


class _PerRoute:
    """ASGI middleware: each request's time and the read-lock wait inside it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        route = load._route(scope["method"], scope["path"])
        box: dict[str, Any] = {"wait": 0.0, "route": route}
        token = _request.set(box)
        start = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            _request.reset(token)
            with REC.lock:
                ms = (time.perf_counter() - start) * 1000
                REC.requests[route].append((ms, float(box["wait"])))


def _summary(result: load.LoadResult) -> dict[str, Any]:
    def pct(xs: list[float], q: float) -> float:
        return round(float(np.percentile(xs, q)), 1) if xs else 0.0

    routes = {}
    for route, rows in sorted(REC.requests.items()):
        if route == "POST /v1/ingest":
            continue
        ms = [r[0] for r in rows]
        waits = [r[1] for r in rows]
        slow = [w / t for t, w in rows if t >= np.percentile(ms, 90) and t > 0]
        routes[route] = {
            "n": len(rows),
            "p50_ms": pct(ms, 50),
            "p95_ms": pct(ms, 95),
            "lock_wait_p95_ms": pct(waits, 95),
            "lock_wait_share_of_slowest_10pct": round(float(np.mean(slow)), 2) if slow else 0.0,
        }
    sections = {
        name: {
            "holds": len(ms),
            "hold_p50_ms": pct(ms, 50),
            "hold_max_ms": round(max(ms), 1),
            "hold_total_s": round(sum(ms) / 1000, 1),
            "drain_p50_ms": pct(REC.drains.get(name, []), 50),
            "drain_max_ms": round(max(REC.drains.get(name, [0.0])), 1),
            "reads_kept_waiting": len(REC.section_waiters.get(name, [])),
            "read_wait_p95_ms": pct(REC.section_waiters.get(name, []), 95),
        }
        for name, ms in sorted(REC.sections.items())
    }
    builders: dict[str, list[float]] = defaultdict(list)
    for who, took in REC.builds:
        builders[who].append(took)
    return {
        "load": result.as_dict(),
        "routes": routes,
        "exclusive_sections": sections,
        "index_builds": {k: {"n": len(v), "p50_ms": pct(v, 50)} for k, v in builders.items()},
    }


@contextmanager
def _server(args: argparse.Namespace) -> Iterator[Neo4jBackend | None]:
    """The run's own Neo4j server (started from an empty database, stopped at the end), or
    None for the embedded store."""
    if args.store != "neo4j":
        yield None
        return
    backend = Neo4jBackend(args.neo4j_uri, args.neo4j_home.resolve())
    server = backend.server()
    if server.status().running:
        raise SystemExit(f"a server already runs at {args.neo4j_uri}: stop it first")
    shutil.rmtree(backend.home / "data", ignore_errors=True)
    server.start()
    try:
        yield backend
    finally:
        server.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--per-client", type=int, default=60)
    p.add_argument("--seed", type=int, default=10)
    p.add_argument("--stream-passages", type=int, default=20)
    p.add_argument("--musique", type=Path, default=crash.MUSIQUE)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--store", choices=("kuzu", "neo4j"), default="kuzu")
    p.add_argument("--neo4j-uri", default="bolt://127.0.0.1:7689", help="a server of the run's own")
    p.add_argument("--neo4j-home", type=Path, default=ROOT / ".kg/reliability-neo4j")
    args = p.parse_args()
    logging.getLogger("neo4j").setLevel(logging.ERROR)  # schema notices of an empty database
    _instrument()
    with tempfile.TemporaryDirectory(prefix="kg-waits-") as tmp, _server(args) as backend:
        work = Path(tmp)
        roots = work / "roots"
        api = ApiSettings(ingest_roots=[roots])
        settings = (
            backend.settings(work / "server", api=api)
            if backend
            else Settings(data_dir=work / "server", api=api)
        )
        c = build(settings)
        c.store.open()
        if backend:
            wipe(c.store)
        c.store.init_schema()
        c.ingestor().ingest_paths([ROOT / "demo"])
        app = create_app(settings, container=c)
        app.add_middleware(_PerRoute)
        try:
            with live_server(app) as url:
                REC.sections.clear()
                REC.section_waiters.clear()
                REC.builds.clear()
                stream = load.passage_stream(args.musique, 0, args.stream_passages, roots)
                result = load.run(url, stream, args.clients, args.per_client, args.seed)
        finally:
            c.store.close()
    figures = _summary(result)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
