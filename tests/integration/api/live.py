"""A real uvicorn server on loopback (port 0) in a thread, for tests that speak HTTP."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn
from fastapi import FastAPI

_KEEP_ALIVE_S = 3600


@contextmanager
def live_server(app: FastAPI, timeout_s: float = 60.0) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields the base URL."""
    # uvicorn closes a keep-alive connection idle for 5 s by default; a client thread that a
    # loaded machine keeps off the CPU that long then sends its next request into a closing
    # socket and reads nothing back (httpx ReadError). The server lives for one test or one
    # benchmark, so idle connections are kept until it stops.
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        lifespan="on",
        timeout_keep_alive=_KEEP_ALIVE_S,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="kg-test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout_s
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the API server stopped during start-up (see the log above)")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise TimeoutError(f"the API server did not start within {timeout_s} s")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def live_client(app: FastAPI, timeout: float = 120.0) -> Iterator[httpx.Client]:
    """``live_server`` with an HTTP client on its base URL."""
    with live_server(app) as url, httpx.Client(base_url=url, timeout=timeout) as client:
        yield client
