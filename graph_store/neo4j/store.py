"""Production ``GraphStore`` adapter on Neo4j 5 (native vector and full-text indexes, GDS).

Writes are MERGE-based and idempotent; one ``upsert_documents`` call is one managed write
transaction (the driver retries it whole on transient errors, which MERGE makes safe).
Provenance works as in the embedded adapter: ``RELATED.evidence`` holds chunk ids, which start
with ``"<doc id>-"``, and ``ALIAS_OF.doc_ids`` holds document ids, so replacing or deleting a
document takes back exactly what it contributed. Every write bumps a graph version counter in
``(:Meta {key: 'graph_version'})`` that names GDS projections (see ``neo4j_gds``).

The ``neo4j`` driver is imported in ``open()``; the constructor does no I/O.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

import cypher
from core.errors import SchemaVersionError, StoreError, StoreUnavailable
from graph_schema import SCHEMA_VERSION, DocumentGraph
from graph_store.neo4j import guard as neo4j_guard
from graph_store.neo4j import writes
from graph_store.neo4j.explore import Neo4jExploreMixin
from graph_store.neo4j.gds import Neo4jGds
from graph_store.neo4j.reads import Neo4jReadsMixin
from graph_store.neo4j.rows import (
    check_relation_types,
    one_line,
)
from graph_store.neo4j.topology import read_topology
from graph_store.packed import packed_table
from graph_store.rows import (
    chunk_rows,
    entity_row,
    same_as_rows,
)
from graph_store.types import TopologyData

log = logging.getLogger(__name__)
# Edges a row of the topology reads (cypher/neo4j/topology_nodes.cypher): rows of 5,000 and
# 50,000 read the 5x 2Wiki relations in 1.5 and 1.1 s, a row an edge in 7.7 s.
TOPOLOGY_BATCH = 20_000

_INDEX_WAIT_S = 300
# Nodes deleted per transaction by reset(): bounded so that the heap holds one batch only.
_RESET_BATCH = 5000


class Neo4jGraphStore(Neo4jReadsMixin, Neo4jExploreMixin):
    """A Neo4j database reached through the official driver (thread-safe, pooled)."""

    def __init__(
        self,
        uri: str,
        user: str,
        password: str,
        database: str = "neo4j",
        embedding_dim: int = 384,
        embedding_model: str = "",
        *,
        max_retry_time_s: float = 5.0,
        connection_timeout_s: float = 5.0,
    ) -> None:
        if embedding_dim <= 0:
            raise StoreError(f"embedding dimension must be positive, got {embedding_dim}")
        self._uri = uri
        self._auth = (user, password)
        self._database = database
        self._dim = int(embedding_dim)
        self._model = embedding_model
        # Bounded so that a request fails (StoreError, a 503 in the API) within seconds while
        # the server is away, instead of after the driver's 30 s defaults (graph_store.config).
        self._retry_s = float(max_retry_time_s)
        self._connect_s = float(connection_timeout_s)
        self._driver: Any = None
        self._neo4j: Any = None
        self._vector_lock = threading.Lock()
        self._vector: Any = None
        # Set while reset() opens a database of another schema version in order to empty it.
        self._resetting = False
        # GDS runs on the writer: catalog graphs live in one server's memory.
        self._gds = Neo4jGds(self._write)

    # --- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        if self._driver is not None:
            return
        import neo4j

        self._neo4j = neo4j
        try:
            driver = neo4j.GraphDatabase.driver(
                self._uri,
                auth=self._auth,
                max_transaction_retry_time=self._retry_s,
                connection_timeout=self._connect_s,
            )
        except (ValueError, neo4j.exceptions.ConfigurationError) as exc:
            raise StoreError(f"invalid Neo4j URI {self._uri!r}: {exc}") from exc
        try:
            driver.verify_connectivity()
        except self._errors() as exc:
            driver.close()
            raise _failed(exc, f"cannot connect to Neo4j at {self._uri}: {exc}") from exc
        self._driver = driver
        try:
            self._check_version()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()
        self._driver = None

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
        for stmt in cypher.statements("neo4j", "schema"):
            # Schema commands cannot share a transaction with data writes: one each.
            self._execute(stmt.rstrip().rstrip(";"), {"dim": self._dim}, write=True)
        self._write("await_indexes", timeout_s=_INDEX_WAIT_S)
        self._check_vector_indexes()
        self._write("meta_set", key="schema_version", value=SCHEMA_VERSION)
        self._write("meta_set", key="embedding_dim", value=str(self._dim))
        self._write("meta_set", key="embedding_model", value=self._model)

    def reset(self) -> None:
        """Empty the database (``kg init --reset``): kg-first's GDS catalog graphs, every node
        and relationship in batches, and the indexes and constraints of schema.cypher. Opens
        the store when needed, even one of another schema version: that is what it is for."""
        if self._driver is None:
            self._resetting = True
            try:
                self.open()
            finally:
                self._resetting = False
        if self._gds.available():
            for (name,) in self._write("gds_graph_names", prefix="kg-"):
                self._write("gds_graph_drop", graph_name=name)
        while self._write("reset_delete_batch", batch=_RESET_BATCH)[0][0]:
            pass
        for stmt in cypher.statements("neo4j", "schema_drop"):
            self._execute(stmt.rstrip().rstrip(";"), {}, write=True)

    def meta(self, key: str) -> str | None:
        """A value kept in ``(:Meta {key})`` (by the store, or by a caller such as the bench)."""
        return self._meta(key)

    def set_meta(self, key: str, value: str) -> None:
        self._write("meta_set", key=key, value=value)

    def _check_vector_indexes(self) -> None:
        from graph_store.neo4j import graphrag

        try:
            dims = graphrag.vector_index_dimensions(self._require(), self._database)
        except self._errors() as exc:
            raise StoreError(f"cannot read the vector indexes: {exc}") from exc
        for name, dim in dims.items():
            if dim != self._dim:
                raise SchemaVersionError(
                    f"the vector index {name!r} holds {dim}-d embeddings but the configured "
                    f"model gives {self._dim}-d: drop it (DROP INDEX {name}) and ingest again"
                )

    def _check_version(self) -> None:
        stored = self._meta("schema_version")
        if stored is None or self._resetting:
            return  # a new database: init_schema() writes the version
        if stored != SCHEMA_VERSION:
            raise SchemaVersionError(
                f"the Neo4j database {self._database!r} at {self._uri} has schema version "
                f"{stored!r}, this kg-first needs {SCHEMA_VERSION!r}: run `kg init --reset` "
                "and ingest again"
            )
        dim = self._meta("embedding_dim")
        if dim and int(dim) != self._dim:
            raise SchemaVersionError(
                f"the Neo4j database {self._database!r} holds {dim}-d embeddings "
                f"({self._meta('embedding_model')!r}) but the configured model gives "
                f"{self._dim}-d: set KG_EMBEDDING__MODEL back or run `kg init --reset`"
            )

    def _meta(self, key: str) -> str | None:
        rows = self._read("meta_get", key=key)
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    # --- low-level ----------------------------------------------------------
    def _errors(self) -> tuple[type[Exception], ...]:
        exc = self._neo4j.exceptions
        return (exc.Neo4jError, exc.DriverError)

    def _require(self) -> Any:
        if self._driver is None:
            raise StoreError("the graph store is not open")
        return self._driver

    def _execute(self, text: str, params: Mapping[str, Any], write: bool) -> list[list[Any]]:
        driver = self._require()
        routing = self._neo4j.RoutingControl.WRITE if write else self._neo4j.RoutingControl.READ
        try:
            records, _, _ = driver.execute_query(
                text, dict(params), routing_=routing, database_=self._database
            )
        except self._errors() as exc:
            raise _failed(exc, f"Neo4j query failed: {one_line(exc)}") from exc
        return [list(r.values()) for r in records]

    def _read(self, name: str, **params: Any) -> list[list[Any]]:
        return self._execute(cypher.load("neo4j", name), params, write=False)

    def _columns(self, name: str) -> Any:
        """Query ``name`` as an Arrow table packed while its rows stream (vectors as float32
        row by row, graph_store/packed.py): the whole-graph reads of the projection."""
        driver = self._require()
        try:
            with driver.session(
                database=self._database, default_access_mode=self._neo4j.READ_ACCESS
            ) as session:
                result = session.run(cypher.load("neo4j", name))
                return packed_table(result.keys(), (r.values() for r in result))
        except self._errors() as exc:
            raise _failed(exc, f"Neo4j query failed: {one_line(exc)}") from exc

    def topology_data(self) -> TopologyData:
        """The graph's topology alone, streamed (graph_store/neo4j/topology.py): what the
        walk and the path search read when they run in the process (``retrieval.topology``)."""
        version = self.graph_version()
        driver = self._require()
        try:
            with driver.session(
                database=self._database, default_access_mode=self._neo4j.READ_ACCESS
            ) as session:

                def rows(name: str) -> Iterator[list[Any]]:
                    result = session.run(cypher.load("neo4j", name), batch=TOPOLOGY_BATCH)
                    return (r.values() for r in result)

                return read_topology(version, rows)
        except self._errors() as exc:
            raise _failed(exc, f"Neo4j query failed: {one_line(exc)}") from exc

    def _write(self, name: str, **params: Any) -> list[list[Any]]:
        return self._execute(cypher.load("neo4j", name), params, write=True)

    def _write_tx(self, work: Callable[[Any], None]) -> None:
        """Run ``work(tx)`` in one managed write transaction, then bump the graph version."""
        driver = self._require()

        def unit(tx: Any) -> None:
            work(tx)
            writes.tq(tx, "graph_version_bump")

        try:
            with driver.session(database=self._database) as session:
                session.execute_write(unit)
        except self._errors() as exc:
            raise _failed(exc, f"Neo4j write failed: {one_line(exc)}") from exc
        if self._gds.known_available():
            # Free the memory of projections of the old graph now; the write has committed,
            # so a failure here only delays the drop until the next projection is needed.
            try:
                self._gds.drop_stale()
            except StoreError as exc:
                log.warning("could not drop stale GDS projections: %s", exc)

    # --- writes -------------------------------------------------------------
    def upsert_documents(self, graphs: Sequence[DocumentGraph]) -> None:
        if not graphs:
            return
        for g in graphs:
            check_relation_types(g.relations)
            # Validate every row before the transaction starts: a bad embedding is a bug in
            # the caller, not something to retry.
            chunk_rows(g.chunks, self._dim)
            for e in g.entities:
                if e.embedding:  # none: one the graph has (see writes.replace_documents)
                    entity_row(e, self._dim)

        same_as = same_as_rows(graphs)

        def work(tx: Any) -> None:
            writes.replace_documents(tx, graphs, self._dim)
            if same_as:
                tx.run(cypher.load("neo4j", "same_as_merge"), rows=same_as).consume()

        self._write_tx(work)

    def delete_document(self, doc_id: str) -> bool:
        if not self._read("document_states", ids=[doc_id]):
            return False
        self._write_tx(lambda tx: writes.delete_documents(tx, [doc_id]))
        return True

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        present = sorted({r[0] for r in self._read("document_states", ids=sorted(set(doc_ids)))})

        if present:
            self._write_tx(lambda tx: writes.delete_documents(tx, present))
        return len(present)

    def refresh_indexes(self) -> None:
        """Neo4j updates its vector and full-text indexes at commit: nothing to do. Authority
        is the read model's to refresh (``GraphReadModel.refresh_authority``)."""

    def authority_stale(self) -> bool:
        version = self.graph_version()
        return not version or self._meta("pagerank_version") != version

    def set_pagerank(self, entity_scores: dict[str, float], doc_scores: dict[str, float]) -> None:
        rows = [{"id": k, "score": float(v)} for k, v in entity_scores.items()]
        if rows:
            self._write("entities_set_pagerank", rows=rows)
        rows = [{"id": k, "score": float(v)} for k, v in doc_scores.items()]
        if rows:
            self._write("documents_set_authority", rows=rows)
        # Subjects as the GDS path links them, so that reads by subject work either way.
        self._write("subjects_link")
        # Scores computed in memory are cached there per graph version, so they move the
        # version on (GDS-written authority does not: see Neo4jReadModel).
        fresh = self._write("graph_version_bump")[0][0]
        self.mark_authority_current(str(fresh))

    def mark_authority_current(self, version: str) -> None:
        """Record that stored authority was computed from graph ``version``."""
        self._write("meta_set", key="pagerank_version", value=version)

    def read_snapshot(self) -> contextlib.AbstractContextManager[None]:
        """Nothing to hold: each read is its own transaction on the committed version of its
        moment (MVCC); a request's reads are not pinned to one version."""
        return contextlib.nullcontext()

    def read(self, name: str, **params: Any) -> list[list[Any]]:
        """Run the named read query ``cypher/neo4j/<name>.cypher`` (for the read model)."""
        return self._read(name, **params)

    @property
    def gds(self) -> Neo4jGds:
        return self._gds

    # --- Neo4j only: GDS, and the read-only Cypher guard of GraphExplorer -----
    def gds_available(self) -> bool:
        """Whether the server has the Graph Data Science plugin (asked once, logged once)."""
        return self._gds.available()

    def run_read_only(
        self,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float = 30.0,
        max_rows: int = 1000,
    ) -> list[dict[str, Any]]:
        """Run untrusted Cypher only if Neo4j plans it as a read (see ``neo4j_guard``);
        raises ReadOnlyViolation otherwise."""
        driver = self._require()
        try:
            return neo4j_guard.run_read_only(
                self._neo4j, driver, self._database, query, params, timeout_s, max_rows
            )
        except self._errors() as exc:
            raise _failed(exc, f"read-only query failed: {exc}") from exc


def _failed(exc: Exception, message: str) -> StoreError:
    """StoreUnavailable when the server could not be reached (after the driver's bounded
    retries), so that callers can tell "try later" from "this query is wrong"."""
    from neo4j.exceptions import DatabaseUnavailable, ServiceUnavailable, SessionExpired

    # DatabaseUnavailable: the server answers but is shutting down or still starting.
    unreachable = isinstance(exc, ServiceUnavailable | SessionExpired | DatabaseUnavailable)
    return StoreUnavailable(message) if unreachable else StoreError(message)
