"""Neo4j out of reach: the store fails with ``StoreUnavailable`` within the driver's bounded
retry (``KG_NEO4J__MAX_RETRY_TIME_S``), the API answers 503 problem+json quickly, and the same
store and API process answer again once the server is back.

The outage is a TCP proxy in front of the shared test server that stops forwarding and drops
its connections, so no test here stops a server it did not start.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.app import create_app
from core.errors import StoreUnavailable
from graph_store.config import Neo4jSettings
from graph_store.neo4j.store import Neo4jGraphStore
from kg.container import build
from kg.settings import Settings
from tests.integration.api.live import live_client
from tests.neo4j_local import PASSWORD, URI, USER

pytestmark = [pytest.mark.neo4j, pytest.mark.usefixtures("neo4j_server")]

RETRY_S = 1.0
# The bound a failing request must keep: the retry time, plus the driver's last back-off
# sleep and the connection attempts, with room for a loaded machine.
BOUND_S = 10.0


class Outage:
    """Forwards a local port to the test server until ``down()``; ``up()`` listens again on
    the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = _free_port()
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def up(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        """Refuse new connections and cut the open ones, as a server that went away."""
        if self._listener is not None:
            # shutdown() first: close() alone leaves a socket that another thread is
            # accept()ing on listening (Linux).
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed by down()
            server = socket.create_connection(self.target)
            with self._lock:
                self._open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def outage() -> Iterator[Outage]:
    host, port = URI.rsplit("//", 1)[1].rsplit(":", 1)
    proxy = Outage((host, int(port)))
    proxy.up()
    yield proxy
    proxy.down()


def test_defaults_are_bounded() -> None:
    cfg = Neo4jSettings()
    # A few seconds, not the driver's 30 s: a request fails soon while the server is away.
    assert 0 < cfg.max_retry_time_s <= 10
    assert 0 < cfg.connection_timeout_s <= 10


def test_nobody_listening_fails_fast() -> None:
    store = Neo4jGraphStore(
        f"bolt://127.0.0.1:{_free_port()}", USER, PASSWORD, max_retry_time_s=RETRY_S
    )
    start = time.perf_counter()
    with pytest.raises(StoreUnavailable, match="cannot connect"):
        store.open()
    assert time.perf_counter() - start < BOUND_S


def test_store_fails_within_the_bound_and_recovers(outage: Outage) -> None:
    store = Neo4jGraphStore(outage.uri, USER, PASSWORD, max_retry_time_s=RETRY_S)
    store.open()
    try:
        before = store.counts()
        outage.down()
        start = time.perf_counter()
        with pytest.raises(StoreUnavailable):
            store.counts()
        assert time.perf_counter() - start < BOUND_S
        outage.up()
        assert store.counts() == before  # the same driver reconnects by itself
    finally:
        store.close()


def test_api_answers_503_problem_json_then_recovers(outage: Outage, tmp_path: Path) -> None:
    neo4j = Neo4jSettings(uri=outage.uri, user=USER, password=PASSWORD, max_retry_time_s=RETRY_S)
    settings = Settings(data_dir=tmp_path / "kg", store="neo4j", neo4j=neo4j)
    container = build(settings)
    container.store.open()
    app = create_app(settings, container=container)
    requests = [
        ("GET", "/v1/stats", None),
        ("GET", "/readyz", None),
        ("POST", "/v1/cypher", {"query": "MATCH (n) RETURN count(n) AS n"}),
    ]
    try:
        with live_client(app) as client:
            for method, path, body in requests:
                assert client.request(method, path, json=body).status_code == 200, path
            outage.down()
            for method, path, body in requests:
                start = time.perf_counter()
                response = client.request(method, path, json=body)
                assert time.perf_counter() - start < BOUND_S, path
                assert response.status_code == 503, (path, response.text)
                assert response.headers["content-type"].startswith("application/problem+json")
                assert response.json()["status"] == 503
            outage.up()
            for method, path, body in requests:
                assert client.request(method, path, json=body).status_code == 200, path
    finally:
        container.store.close()
