"""What only the FalkorDB store has to prove: the server it owns keeps every committed write
across a restart, a ``kill -9`` of the server, and a ``kill -9`` of its owner mid-ingest;
it listens on a unix socket only; one process owns a data directory at a time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import SchemaVersionError, StoreError, StoreUnavailable
from graph_store.falkordb.server import FalkorServer
from graph_store.falkordb.store import FalkorGraphStore
from tests.integration.graph_store.falkordb.conftest import make_store
from tests.integration.tiny_graphs import DIM, graph


def _docs(n: int, prefix: str = "d") -> list:  # type: ignore[type-arg]
    return [
        graph(f"{prefix}{i}", [f"text {i} a", f"text {i} b"], [f"e{i}", "s"], []) for i in range(n)
    ]


def test_constructor_does_no_io(tmp_path: Path) -> None:
    make_store(tmp_path / "sub" / "g")
    assert not (tmp_path / "sub").exists()


def test_restart_keeps_every_document(tmp_path: Path) -> None:
    with make_store(tmp_path / "g") as s:
        s.init_schema()
        s.upsert_documents(_docs(5))
        before = s.counts()
        version = s.graph_version()
    with make_store(tmp_path / "g") as s:
        assert s.counts() == before
        assert s.graph_version() == version
        assert s.vector_search_entities(s.projection_data().entity_embeddings[0], 1)


def test_kill_9_of_the_server_loses_no_committed_document(tmp_path: Path) -> None:
    s = make_store(tmp_path / "g")
    s.open()
    s.init_schema()
    for g in _docs(20):
        s.upsert_documents([g])  # one committed write each
    before = s.counts()
    pid = s.server_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(StoreError):
        s.counts()
    s.close()
    with make_store(tmp_path / "g") as again:
        assert again.counts() == before
        assert again.server_pid != pid


def _writer_killed_after(data: Path, commits: int, *, with_server: bool) -> tuple[int, list[str]]:
    """Run tests/.../ingest_until_killed on ``data``, SIGKILL it once it has reported
    ``commits`` commits (never at a time), and its server too when ``with_server``: the
    server's pid and the ids reported committed."""
    module = "tests.integration.graph_store.falkordb.ingest_until_killed"
    child = subprocess.Popen(
        [sys.executable, "-m", module, str(data)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    server = int(child.stdout.readline().split()[1])
    committed: list[str] = []
    while len(committed) < commits:
        line = child.stdout.readline()
        assert line, f"the writer stopped before {commits} commits"
        committed.append(line.split()[1])
    os.kill(child.pid, signal.SIGKILL)
    if with_server:
        os.kill(server, signal.SIGKILL)
    child.wait()
    return server, committed


def test_kill_9_of_owner_and_server_mid_ingest_keeps_every_committed_document(
    tmp_path: Path,
) -> None:
    """Every reported document is stored whole, and no document is stored in part."""
    _, committed = _writer_killed_after(tmp_path / "g", 15, with_server=True)
    with make_store(tmp_path / "g") as s:
        stored = {d.id: d.chunks for d in s.list_documents(0, 10_000)}
        assert set(committed) <= set(stored)
        assert all(n == 2 for n in stored.values())  # whole documents only
        c = s.counts()
        assert (c.chunks, c.mentions) == (2 * len(stored), 2 * len(stored))
        s.upsert_documents(_docs(1, "after"))  # and it takes writes again


def test_a_server_left_by_a_killed_owner_is_adopted(tmp_path: Path) -> None:
    server, _ = _writer_killed_after(tmp_path / "g", 1, with_server=False)
    with make_store(tmp_path / "g") as s:
        assert s.server_pid == server  # the running server, not a second one
        assert s.counts().documents >= 1
    assert not Path(f"/proc/{server}").exists() or _zombie(server)


def test_start_up_waits_for_the_log_to_say_ready_before_any_command(tmp_path: Path) -> None:
    """A command sent while Redis replays a MULTI/EXEC block of the append-only file aborts
    it ('!server.in_exec'), so readiness is read from the server's own log lines first."""
    server = FalkorServer(tmp_path)
    server.pid = 4242
    log = tmp_path / "redis.log"
    lines = [
        "4242:C 01 Jan * Redis is starting",  # an earlier server with the same pid: ready
        "4242:M 01 Jan * Ready to accept connections unix",
        "4242:C 02 Jan * Redis is starting",  # this one: still loading
        "4242:M 02 Jan * Reading RDB base file on AOF loading...",
        "77:M 02 Jan * Ready to accept connections unix",  # another server's line
    ]
    log.write_text("\n".join(lines) + "\n")
    assert not server._logged_ready()
    log.write_text(log.read_text() + "4242:M 02 Jan * Ready to accept connections unix\n")
    assert server._logged_ready()


def _zombie(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"


def test_one_owner_per_data_directory(store: FalkorGraphStore, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="open in another process"):
        make_store(tmp_path / "g.falkordb").open()
    assert store.counts().documents == 0  # the owner is unaffected


def test_unix_socket_only(store: FalkorGraphStore) -> None:
    pid = store.server_pid
    assert pid is not None and store.socket_path.is_socket()
    assert oct(store.socket_path.stat().st_mode & 0o777) == oct(0o700)
    inodes = {
        os.readlink(f"/proc/{pid}/fd/{fd}")[len("socket:[") : -1]
        for fd in os.listdir(f"/proc/{pid}/fd")
        if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:[")
    }
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                listening.add(fields[9])
    assert inodes and not inodes & listening


def test_schema_version_mismatch_is_a_clear_error(tmp_path: Path) -> None:
    with make_store(tmp_path / "g") as s:
        s.init_schema()
        s._write("meta_set", key="schema_version", value="0")
    with pytest.raises(SchemaVersionError, match="kg init --reset"):
        make_store(tmp_path / "g").open()
    with pytest.raises(SchemaVersionError):
        FalkorGraphStore(tmp_path / "g", DIM * 2, "other").open()
    # reset empties a store of another version, and the lock is free again after each failure
    s = make_store(tmp_path / "g")
    s.reset()
    s.open()
    s.init_schema()
    assert s.counts().documents == 0
    s.close()


def test_a_failed_write_in_a_block_is_reported(store: FalkorGraphStore) -> None:
    store.upsert_documents(_docs(1))
    with pytest.raises(StoreError, match="has a 3-d embedding"):
        bad = graph("bad", ["x"], [], [])
        chunk = bad.chunks[0].model_copy(update={"embedding": (1.0, 0.0, 0.0)})
        store.upsert_documents([bad.model_copy(update={"chunks": (chunk,)})])
    assert store.counts().documents == 1  # validated before anything was sent


def test_falkordb_pagerank_ranks_the_entity_relations_point_to(store: FalkorGraphStore) -> None:
    store.upsert_documents([graph("d", ["x"], ["a", "b", "hub"], [("a", "hub"), ("b", "hub")])])
    ranked = store.pagerank(3)
    assert ranked[0][0] == "hub" and ranked[0][1] > ranked[-1][1]


def test_a_relative_data_directory_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server runs in its directory: a relative path must not be taken twice."""
    monkeypatch.chdir(tmp_path)
    with make_store(Path("rel") / "g") as s:
        s.init_schema()
        assert s.socket_path.is_absolute() and s.socket_path.is_socket()
        assert s.counts().documents == 0


def test_a_store_never_written_reads_as_empty(tmp_path: Path) -> None:
    with make_store(tmp_path / "g") as s:  # no init_schema: FalkorDB has no key yet
        assert s.counts().documents == 0
        assert s.graph_version() == "" and s.list_documents() == []


def test_a_server_that_stops_answering_is_store_unavailable(tmp_path: Path) -> None:
    """A stopped (SIGSTOP) server never replies, whatever the limit: the client's socket
    timeout ends the wait, and the caller gets our error naming the setting, not redis's."""
    s = FalkorGraphStore(tmp_path / "g", DIM, "test-model", socket_timeout_s=0.5)
    with s:
        s.init_schema()
        s.upsert_documents(_docs(1))
        pid = s.server_pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        try:
            with pytest.raises(StoreUnavailable, match="SOCKET_TIMEOUT_S"):
                s.counts()
            with pytest.raises(StoreUnavailable, match=r"within 0\.5 s during a write"):
                s.set_pagerank({"s": 1.0}, {})
        finally:
            os.kill(pid, signal.SIGCONT)
