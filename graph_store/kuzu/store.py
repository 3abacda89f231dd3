"""Embedded ``GraphStore`` adapter on Kùzu 0.11.3 (vector, full-text and algo built in).

Kùzu refuses ``SET`` on a property covered by a vector index, so chunks and entities are only
ever written with ``CREATE``: chunk ids derive from content and entity embeddings from the
entity's name, so neither ever needs an update in place. Relations and alias links carry their
provenance (chunk ids / document ids) so that replacing or deleting a document removes exactly
what it contributed.

Kùzu 0.11.3 loses the Document node at commit when one transaction writes five relationship
tables (reproduced with HAS_CHUNK, MENTIONS, ALIAS_OF, RELATED and NEXT), so the embedded
schema has no NEXT table: chunk order is ``Chunk.idx`` and ``export_next`` derives adjacency.
Keep document writes to at most four relationship tables per transaction.

Full-text indexes are dropped before a write and rebuilt lazily; vector indexes are built once
their tables have rows: see ``kuzu_indexes.py``.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import cypher
from core.errors import SchemaVersionError, StoreError, StoreLocked
from graph_schema import EMBEDDED_SCHEMA_VERSION, DocumentGraph
from graph_store.kuzu.explore import KuzuExploreMixin
from graph_store.kuzu.indexes import KuzuIndexMixin
from graph_store.kuzu.reads import KuzuReadMixin
from graph_store.kuzu.recovery import load_extensions, recover_unreplayable_log
from graph_store.kuzu.rwlock import ReadWriteLock
from graph_store.kuzu.write import KuzuWriteMixin
from graph_store.rows import (
    read_projection,
    same_as_rows,
)
from graph_store.types import (
    ProjectionData,
)

_DELETE_BATCH = 500  # documents per delete transaction: bounds what one transaction holds
# Rows per Arrow record batch of a columnar read; the projection reads one table per query.
_ARROW_ROWS = 1_000_000


class KuzuGraphStore(KuzuWriteMixin, KuzuIndexMixin, KuzuReadMixin, KuzuExploreMixin):
    """One read-write Kùzu database per process; the constructor only records settings."""

    def __init__(self, path: Path, embedding_dim: int, embedding_model: str) -> None:
        if embedding_dim <= 0:
            raise StoreError(f"embedding dimension must be positive, got {embedding_dim}")
        self._path = Path(path)
        self._dim = int(embedding_dim)
        self._model = embedding_model
        self._db: Any = None
        self._conn: Any = None
        # Readers share it (each on its own thread's connection), writers hold it alone: see
        # rwlock.py for why Kùzu needs that even though it runs reads beside a write.
        self._rw = ReadWriteLock()
        self._local = threading.local()
        self._readers: list[Any] = []
        self._readers_lock = threading.Lock()
        self._generation = 0
        self._fts_ready = False
        self._checkpoint_attempts = 2
        self._vector_indexes: set[str] = set()

    # --- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        if self._conn is not None:
            return
        import kuzu

        self._path.parent.mkdir(parents=True, exist_ok=True)
        recover_unreplayable_log(self._path)
        try:
            # Checkpoints are ours, after each commit and under the exclusive hold (rwlock.py):
            # an automatic one, after a write statement outside a transaction, would wait for
            # the readers beside the write.
            self._db = kuzu.Database(str(self._path), auto_checkpoint=False)
            self._conn = kuzu.Connection(self._db)
            load_extensions(self._conn)
        except RuntimeError as exc:
            self.close()
            kind = StoreLocked if "lock" in str(exc).lower() else StoreError
            raise kind(f"cannot open embedded graph at {self._path}: {exc}") from exc
        self._check_version()

    def close(self) -> None:
        with self._readers_lock:
            for reader in self._readers:
                with contextlib.suppress(RuntimeError):
                    reader.close()
            self._readers.clear()
            self._generation += 1
        if self._conn is not None:
            self._conn.close()
        if self._db is not None:
            self._db.close()
        self._conn = None
        self._db = None

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
        with self._writing(), self._exclusive():
            for stmt in cypher.statements("kuzu", "schema"):
                self._run_raw(stmt.replace("{dim}", str(self._dim)))
            # Vector indexes are not created here but once their tables have rows: see
            # kuzu_indexes.py.
            self._ensure_fulltext()
            self._q("meta_set", key="schema_version", value=EMBEDDED_SCHEMA_VERSION)
            self._q("meta_set", key="embedding_dim", value=str(self._dim))
            self._q("meta_set", key="embedding_model", value=self._model)
            self._checkpoint()

    def _check_version(self) -> None:
        tables = {row[0] for row in self._run_raw("CALL SHOW_TABLES() RETURN name")}
        if "Meta" not in tables:
            return  # a new store: init_schema() writes the version
        stored = self._meta("schema_version")
        if stored != EMBEDDED_SCHEMA_VERSION:
            raise SchemaVersionError(
                f"the graph at {self._path} has schema version {stored!r}, this kg-first needs "
                f"{EMBEDDED_SCHEMA_VERSION!r}: run `kg init --reset` and ingest again"
            )
        dim = self._meta("embedding_dim")
        if dim and int(dim) != self._dim:
            raise SchemaVersionError(
                f"the graph at {self._path} holds {dim}-d embeddings "
                f"({self._meta('embedding_model')!r}) but the configured model gives "
                f"{self._dim}-d: "
                "set KG_EMBEDDING__MODEL back or run `kg init --reset` and ingest again"
            )
        # Same dimension, other vectors: torch's fp32 MiniLM and onnx's int8 one differ a
        # little, and a store queried with the other would rank by mixed vectors.
        model = self._meta("embedding_model")
        if model and self._model and model != self._model:
            raise SchemaVersionError(
                f"the graph at {self._path} was embedded with {model!r} but the configured "
                f"embedder is {self._model!r}: set KG_EMBEDDING__BACKEND (torch or onnx) and "
                "KG_EMBEDDING__MODEL to what built it, or run `kg init --reset` and ingest again"
            )

    def _meta(self, key: str) -> str | None:
        rows = self._q("meta_get", key=key)
        return str(rows[0][0]) if rows else None

    # --- low-level ----------------------------------------------------------
    def _require(self) -> Any:
        """The calling thread's connection: the writer's own for the thread holding the write
        lock, otherwise one per thread (Kùzu connections are cheap; one must not be shared by
        threads running queries at the same time)."""
        if self._conn is None:
            raise StoreError("the graph store is not open")
        local = self._local
        if getattr(local, "writing", 0):
            return self._conn
        if getattr(local, "generation", None) != self._generation:
            import kuzu

            with self._readers_lock:
                conn = kuzu.Connection(self._db)
                self._readers.append(conn)
            local.conn, local.generation = conn, self._generation
        return local.conn

    def _reading(self) -> contextlib.AbstractContextManager[None]:
        """Shared hold for work on this thread's connection outside ``_run_raw``."""
        return self._rw.read()

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        """The queries of this thread inside read one committed version: one read-only
        transaction on the thread's connection (Kùzu serves it the last commit's snapshot
        whatever commits meanwhile). Writers write beside it; only a checkpoint or an index
        change waits for it to end. The writer's own thread reads its own transaction, and a
        snapshot inside another is the outer one."""
        local = self._local
        with self._rw.read():
            if getattr(local, "writing", 0) or getattr(local, "snapshot", False):
                yield
                return
            conn = self._require()
            conn.execute("BEGIN TRANSACTION READ ONLY")
            local.snapshot = True
            try:
                yield
            finally:
                local.snapshot = False
                try:
                    conn.execute("COMMIT")
                except RuntimeError:  # a failed query already ended the transaction
                    with contextlib.suppress(RuntimeError):
                        conn.execute("ROLLBACK")

    def read_snapshot(self) -> contextlib.AbstractContextManager[None]:
        """Every read of this thread inside reads one committed version (``_snapshot``): for
        a caller (an API route) that makes several reads to answer one request."""
        return self._snapshot()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold the write lock; queries of this thread go through the writer connection."""
        with self._rw.write():
            local = self._local
            local.writing = getattr(local, "writing", 0) + 1
            try:
                yield
            finally:
                local.writing -= 1

    @contextlib.contextmanager
    def _writing_if_free(self) -> Iterator[bool]:
        """``_writing()`` when no other thread writes and this one is not inside a read;
        otherwise it yields False at once instead of waiting."""
        with self._rw.try_write() as held:
            if not held:
                yield False
                return
            local = self._local
            local.writing = getattr(local, "writing", 0) + 1
            try:
                yield True
            finally:
                local.writing -= 1

    def _exclusive(self) -> contextlib.AbstractContextManager[None]:
        """The writer's hold with no reader beside it: for checkpoints and index changes,
        which Kùzu runs only once every other transaction has left. Callers hold
        ``_writing()``."""
        return self._rw.exclusive()

    def _run_raw(self, text: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        conn = self._require()
        with self._rw.read():
            try:
                result = conn.execute(text, params or {})
                rows: list[list[Any]] = result.get_all()
            except RuntimeError as exc:
                raise StoreError(f"embedded graph query failed: {exc}") from exc
        return rows

    def _q(self, name: str, **params: Any) -> list[list[Any]]:
        return self._run_raw(cypher.load("kuzu", name), params)

    def _q_columns(self, name: str) -> Any:
        """A named query's result as one Arrow table: vectors stay packed float32 columns, not
        a Python float per component (graph_store.rows.read_projection)."""
        conn = self._require()
        with self._rw.read():
            try:
                return conn.execute(cypher.load("kuzu", name)).get_as_arrow(chunk_size=_ARROW_ROWS)
            except RuntimeError as exc:
                raise StoreError(f"embedded graph query failed: {exc}") from exc

    def _read(self, name: str, **params: Any) -> list[list[Any]]:
        """``_q`` under the name the shared read mixin uses (``graph_store.named_reads``)."""
        return self._q(name, **params)

    def _q_rows(self, name: str, rows: list[dict[str, Any]]) -> list[list[Any]]:
        # Kùzu cannot infer the element type of an empty list parameter.
        return self._q(name, rows=rows) if rows else []

    # --- writes -------------------------------------------------------------
    def upsert_documents(self, graphs: Sequence[DocumentGraph]) -> None:
        if not graphs:
            return
        with self._writing():
            self._in_transaction(lambda: self._write_batch(graphs))
            same_as = same_as_rows(graphs)
            if same_as:
                # Its own transaction after the documents' one: Kùzu 0.11.3 loses nodes when
                # one transaction writes five relationship tables.
                self._in_transaction(lambda: self._write_same_as(same_as))

    def delete_document(self, doc_id: str) -> bool:
        return self.delete_documents([doc_id]) == 1

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        ids = sorted(set(doc_ids))
        deleted = 0
        with self._writing():
            for start in range(0, len(ids), _DELETE_BATCH):
                window = ids[start : start + _DELETE_BATCH]
                part = sorted(r[0] for r in self._q("document_states", ids=window))
                if part:
                    self._in_transaction(functools.partial(self._delete, part))
                    deleted += len(part)
        return deleted

    def _in_transaction(self, work: Callable[[], object]) -> None:
        self._drop_fulltext()
        conn = self._require()
        conn.execute("BEGIN TRANSACTION")
        try:
            work()
            # A new version in the same transaction: caches keyed on it (retrieval projections)
            # can never pair old contents with a new version or the reverse.
            self._q("meta_set", key="graph_version", value=uuid.uuid4().hex)
            # The statements ran beside readers; the commit does not. A transaction that
            # bulk-loaded with COPY (every document write) is checkpointed inside its COMMIT,
            # which waits for every other transaction to leave, so readers wait for the
            # COMMIT and the checkpoint only.
            with self._exclusive():
                try:
                    conn.execute("COMMIT")
                except RuntimeError as exc:
                    # When the checkpoint inside COMMIT fails, the transaction stands.
                    raise StoreError(
                        f"embedded graph: COMMIT failed ({exc}); the write may stand, "
                        "unprotected from a kill until the next checkpoint"
                    ) from exc
                self._checkpoint()
        except BaseException:
            # Kùzu rolls back by itself when a statement fails inside the transaction.
            with contextlib.suppress(RuntimeError):
                conn.execute("ROLLBACK")
            raise

    def _checkpoint(self) -> None:
        """Fold the write-ahead log into the database files after every committed write.

        Kùzu 0.11.3 replays committed WAL records wrongly after a SIGKILL (dropped full-text
        indexes make the graph unopenable; a relationship deleted and re-created comes back
        twice; a node deleted and re-created with the same id goes missing). With the log
        emptied at each commit, a kill leaves a log only when it lands inside a commit; the
        one such log Kùzu cannot replay is salvaged at the next open (kuzu_recovery.py).
        It runs under the exclusive hold, so no reader transaction can hold the checkpoint up.
        Kùzu gives up on a checkpoint after waiting ~6 s for open transactions to leave; one
        retry covers a straggler, then the failure is raised: the write is committed, but the
        crash safety above no longer holds for it, which a caller must not learn from a kill."""
        conn = self._require()
        for attempt in range(1, self._checkpoint_attempts + 1):
            try:
                with self._exclusive():
                    conn.execute("CHECKPOINT")
                return
            except RuntimeError as exc:
                if attempt == self._checkpoint_attempts:
                    raise StoreError(
                        f"embedded graph: CHECKPOINT failed {attempt} time(s) ({exc}); what "
                        "was committed stays in the write-ahead log, unprotected from a kill"
                    ) from exc

    def refresh_indexes(self) -> None:
        """Rebuild the full-text indexes and build the chunks' vector index after a run of
        writes (the entities' waits for its first query: indexes.py). Authority is the read
        model's to refresh (``GraphReadModel.refresh_authority``)."""
        with self._writing():
            self._ensure_vectors(("chunk_emb",))
            self._ensure_fulltext()

    def authority_stale(self) -> bool:
        version = self.graph_version()
        return not version or self._meta("pagerank_version") != version

    def graph_version(self) -> str:
        """Changes with every committed write; empty for a graph never written."""
        return self._meta("graph_version") or ""

    def projection_data(self) -> ProjectionData:
        """One graph version's projection: its several queries read one snapshot."""
        with self._snapshot():
            return read_projection(
                self.graph_version(), lambda name: self._q(name), self._q_columns
            )

    def set_pagerank(self, entity_scores: dict[str, float], doc_scores: dict[str, float]) -> None:
        with self._writing():
            rows = [{"id": k, "score": float(v)} for k, v in entity_scores.items()]
            self._q_rows("entities_set_pagerank", rows)
            rows = [{"id": k, "score": float(v)} for k, v in doc_scores.items()]
            self._q_rows("documents_set_authority", rows)
            # Authority is part of what retrieval caches, so it moves the version on.
            fresh = uuid.uuid4().hex
            self._q("meta_set", key="graph_version", value=fresh)
            self._q("meta_set", key="pagerank_version", value=fresh)
            self._checkpoint()

    def _vec(self, embedding: Sequence[float]) -> list[float]:
        vec = [float(x) for x in embedding]
        if len(vec) != self._dim:
            raise StoreError(f"query embedding has {len(vec)} dimensions, the store {self._dim}")
        return vec
