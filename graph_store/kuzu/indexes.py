"""Index upkeep of the embedded store: a mixin of ``KuzuGraphStore``.

Full-text indexes are dropped before every write and rebuilt lazily before the next full-text
query: with both FTS indexes present, Kùzu 0.11.3 lost the Document and Chunk nodes created
in a multi-statement transaction at commit (reproduced by replaying our statements), and
incrementally maintained FTS indexes returned wrong rows after deletes.

Vector (HNSW) indexes are created when first needed, not with the schema: a vector query, or
(the chunks' index only) the ``refresh_indexes`` that ends an ingest. Inserting rows one by one
into an HNSW index cost about as much as everything else a batch writes (800 MuSiQue passages:
31 s of writes with the indexes, 17 s without), while building one over a filled table is one
bulk pass. So a store's first ingest writes without them and builds the chunks' once at its
end; later writes into a store that has them maintain them row by row. The entities' index
waits for its first query: retrieval ranks entity names exactly from the read model's copy
of their vectors, so only resolution's nearest stored names (in a later ingest) and a read
model without vectors query it, and a first ingest no longer builds it (2Wiki's 37,332
names: 16 s of the ingest's end, docs/benchmarks.md "Scale"). They are never dropped: in Kùzu 0.11.3
``DROP_VECTOR_INDEX`` on a table with rows leaves the table unwritable ("_0_chunk_emb_UPPER
does not exist in catalog") and the database crashes on reopen.

A vector query that finds its table's index missing builds it first under the write lock (it
waits for the batch being written, then indexes everything committed; the run's later batches
maintain it), so no query ever answers from a partial index; a table with no rows has no
index yet and answers nothing.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import cypher
from core.errors import StoreError

FTS_INDEXES = ("chunk_fts", "alias_fts")
VECTOR_INDEXES = ("chunk_emb", "entity_emb")  # the order of indexes.cypher
VECTOR_TABLES = {"chunk_emb": "Chunk", "entity_emb": "Entity"}
_ATTEMPTS = 3


class KuzuIndexMixin:
    """Needs the host's ``_q``, ``_run_raw``, ``_writing`` and ``_checkpoint``; keeps the state
    below, which the host starts at False and empty."""

    _fts_ready: bool
    _vector_indexes: set[str]  # the vector indexes known to exist (they are never dropped)

    if TYPE_CHECKING:

        def _q(self, name: str, **params: Any) -> list[list[Any]]: ...

        def _run_raw(self, text: str, params: dict[str, Any] | None = None) -> list[list[Any]]: ...

        def _writing(self) -> contextlib.AbstractContextManager[None]: ...

        def _checkpoint(self) -> None: ...

        def _exclusive(self) -> contextlib.AbstractContextManager[None]: ...

        def _writing_if_free(self) -> contextlib.AbstractContextManager[bool]: ...

    def _index_names(self) -> set[str]:
        return {row[0] for row in self._q("index_names")}

    # --- full-text ------------------------------------------------------------
    def _drop_fulltext(self) -> None:
        present = self._index_names() & set(FTS_INDEXES)
        if present:
            with self._exclusive():
                drops = cypher.statements("kuzu", "fulltext_drop")
                for stmt, name in zip(drops, FTS_INDEXES, strict=True):
                    if name in present:
                        self._run_raw(stmt)
                self._checkpoint()
        self._fts_ready = False

    def _ensure_fulltext(self) -> None:
        if self._fts_ready:
            return
        self._create_missing(FTS_INDEXES, "fulltext_create")
        self._fts_ready = True

    # --- vector ---------------------------------------------------------------
    def _ensure_vectors(self, names: tuple[str, ...]) -> None:
        """Create those of the ``names`` vector indexes whose table has rows and that are
        missing. Callers hold the write lock."""
        missing = tuple(n for n in names if n not in self._vector_indexes)
        if not missing:
            return
        chunks, entities = self._q("vector_table_sizes")[0]
        filled = {"Chunk": int(chunks) > 0, "Entity": int(entities) > 0}
        wanted = tuple(n for n in missing if filled[VECTOR_TABLES[n]])
        if wanted:
            self._create_missing(VECTOR_INDEXES, "indexes", wanted)
        self._vector_indexes |= set(wanted)

    def _vector_query(self, index: str, name: str, **params: Any) -> list[list[Any]]:
        if index not in self._vector_indexes:  # until it exists, a query checks first
            with self._writing():
                self._ensure_vectors((index,))
            if index not in self._vector_indexes:
                return []  # its table had no rows when checked
        return self._q(name, **params)

    def _prepare_fulltext(self) -> None:
        """Rebuild the full-text indexes now if they are dropped and no write is in
        progress (for a caller about to read a snapshot, which cannot build them)."""
        if not self._fts_ready:
            with self._writing_if_free() as held:
                if held:
                    self._ensure_fulltext()

    def _fulltext(self, name: str, **params: Any) -> list[list[Any]] | None:
        """A full-text query; None while another thread's write has the indexes dropped (or
        this thread reads a snapshot taken before they were rebuilt): a reader does not queue
        behind a write for them (the caller answers from its copy of the last committed
        version, or from the exact and prefix tiers of a lookup)."""
        for attempt in range(_ATTEMPTS):
            if not self._fts_ready:  # only the first query after a write rebuilds them
                with self._writing_if_free() as held:
                    if not held:
                        return None
                    self._ensure_fulltext()
            try:
                return self._q(name, **params)
            except StoreError as exc:
                # Retried: a write that dropped the indexes between the check above and the
                # query, and Kùzu 0.11.3's FTS extension failing about one query in 700 with
                # this internal error whatever the query (2,000 HotpotQA questions measured;
                # the same query run again succeeds). Anything else is raised.
                transient = "unordered_map::at" in str(exc) or not self._fts_ready
                if not transient or attempt == _ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    # --- shared ---------------------------------------------------------------
    def _create_missing(
        self, names: tuple[str, ...], create: str, wanted: tuple[str, ...] | None = None
    ) -> None:
        """Create the ``wanted`` indexes (default: all ``names``, the indexes the ``create``
        file makes in its order) that the catalogue lacks, then fold the log. Callers hold
        the write lock; this takes the exclusive hold (no reader beside an index build)."""
        with self._exclusive():
            self._create_in(names, create, wanted)

    def _create_in(
        self, names: tuple[str, ...], create: str, wanted: tuple[str, ...] | None
    ) -> None:
        present = self._index_names()
        created = False
        for stmt, name in zip(cypher.statements("kuzu", create), names, strict=True):
            if name in present or name not in (names if wanted is None else wanted):
                continue
            try:
                self._run_raw(stmt)
            except StoreError as exc:
                # A process killed while building an index leaves part of it behind: the
                # catalogue does not list it, yet creating it again says it exists.
                if "already exists" not in str(exc):
                    raise
                self._clear_remains(name)
                self._run_raw(stmt)
            created = True
        if created:
            self._checkpoint()

    def _clear_remains(self, name: str) -> None:
        if name in FTS_INDEXES:
            drops = dict(zip(FTS_INDEXES, cypher.statements("kuzu", "fulltext_drop"), strict=True))
            with contextlib.suppress(StoreError):
                self._run_raw(drops[name])
        # Kùzu keeps an index in internal tables named "<table id>_<index>_<part>".
        pattern = re.compile(rf"^[0-9]+_{re.escape(name)}_[a-z_]+$")
        for table in _matching(self._run_raw("CALL SHOW_TABLES() RETURN name"), pattern):
            with contextlib.suppress(StoreError):  # a catalogue name checked by pattern
                self._run_raw(f"DROP TABLE `{table}`")


def _matching(rows: list[list[Any]], pattern: re.Pattern[str]) -> Iterator[str]:
    return (str(r[0]) for r in rows if pattern.match(str(r[0])))
