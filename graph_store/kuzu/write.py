"""Document writes of the embedded store: a mixin of ``KuzuGraphStore``.

A batch is written in two phases inside one transaction: every read first (what the batch's
documents contributed before, which keys already exist), then every write, one statement per
table for the whole batch. No statement reads what the same transaction wrote, which Kùzu
0.11.3 does not reliably show (see ``provenance.py``), and a batch costs a fixed number of
queries instead of a dozen per document.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graph_schema import DocumentGraph, Entity
from graph_store.kuzu.provenance import fold_alias_links, fold_relations
from graph_store.kuzu.tables import (
    alias_of_table,
    alias_table,
    chunk_table,
    document_table,
    entity_table,
    has_chunk_table,
    mention_table,
    related_table,
    same_as_table,
    with_id_string,
)
from graph_store.rows import alias_rows, document_params, numeric_fact_rows, relation_rows


@dataclass
class _Stored:
    """What the store holds now for a set of documents, read before any write."""

    present: set[str] = field(default_factory=set)
    chunks: dict[str, set[str]] = field(default_factory=dict)
    mentioned: set[str] = field(default_factory=set)
    relations: list[list[Any]] = field(default_factory=list)
    links: list[list[Any]] = field(default_factory=list)
    aliases: set[str] = field(default_factory=set)  # the batch's alias keys the store has

    def all_chunks(self) -> set[str]:
        return {c for ids in self.chunks.values() for c in ids}


Row = dict[str, Any]


@dataclass
class _Batch:
    """The rows a batch of documents brings, computed once from its graphs."""

    graphs: list[DocumentGraph]
    doc_ids: list[str]
    entities: dict[str, Entity]
    relations: list[Row]
    links: list[Row]
    mentions: list[Row]
    chunk_ids: set[str]

    @classmethod
    def of(cls, graphs: list[DocumentGraph]) -> _Batch:
        entities: dict[str, Entity] = {}
        for g in graphs:
            for e in g.entities:
                entities.setdefault(e.id, e)
        return cls(
            graphs=graphs,
            doc_ids=[g.document.id for g in graphs],
            entities=entities,
            relations=relation_rows(r for g in graphs for r in g.relations),
            links=[row for g in graphs for row in alias_rows(g.aliases, g.document.id)],
            mentions=[
                {"chunk_id": m.chunk_id, "entity_id": m.entity_id, "count": m.count}
                for g in graphs
                for m in g.mentions
            ],
            chunk_ids={c.id for g in graphs for c in g.chunks},
        )

    def mentioned(self) -> set[str]:
        return {str(m["entity_id"]) for m in self.mentions}

    def without(self, dropped: set[str]) -> _Batch:
        """The batch less the entities ``dropped`` and every row that names one.

        A new entity the batch names but does not mention (an alias or relation end only)
        would be an orphan for the same transaction to delete. It is not written at all: the
        store ends as if it had been written and cleaned up, and the orphan check needs to
        look only at aliases that existed before the batch (see ``_cleanup``)."""
        if not dropped:
            return self

        def keep(row: Row, *keys: str) -> bool:
            return not any(row[k] in dropped for k in keys)

        return _Batch(
            graphs=self.graphs,
            doc_ids=self.doc_ids,
            entities={i: e for i, e in self.entities.items() if i not in dropped},
            relations=[r for r in self.relations if keep(r, "source_id", "target_id")],
            links=[r for r in self.links if keep(r, "entity_id")],
            mentions=self.mentions,
            chunk_ids=self.chunk_ids,
        )


class KuzuWriteMixin:
    """Needs the host's ``_q``, ``_q_rows`` and ``_dim``; holds no state of its own."""

    if TYPE_CHECKING:
        _dim: int

        def _q(self, name: str, **params: Any) -> list[list[Any]]: ...

        def _q_rows(self, name: str, rows: list[dict[str, Any]]) -> list[list[Any]]: ...

    def _read_stored(self, doc_ids: list[str]) -> _Stored:
        stored = _Stored()
        stored.present = {r[0] for r in self._q("document_states", ids=doc_ids)}
        if not stored.present:
            return stored
        chunks: dict[str, set[str]] = defaultdict(set)
        for doc_id, chunk_id in self._q("documents_chunk_ids", ids=doc_ids):
            chunks[doc_id].add(chunk_id)
        stored.chunks = dict(chunks)
        stored.mentioned = {r[0] for r in self._q("documents_mentioned_entities", ids=doc_ids)}
        evidence = sorted(stored.all_chunks())
        if evidence and stored.mentioned:
            stored.relations = self._q(
                "relations_of_chunks", chunk_ids=evidence, entity_ids=sorted(stored.mentioned)
            )
        stored.links = self._q("alias_links_of_documents", ids=doc_ids)
        return stored

    def _alias_candidates(self, entity_ids: set[str], deleted_links: list[Row]) -> list[str]:
        """The aliases a write may leave without a link, read before any write: those of
        the links it deletes and those linked to entities it may delete as orphans."""
        names = {str(r["normalized"]) for r in deleted_links}
        if entity_ids:
            names |= {r[0] for r in self._q("aliases_of_entities", ids=sorted(entity_ids))}
        return sorted(names)

    def _cleanup(
        self, candidates: set[str], aliases: list[str], recount: set[str] | None = None
    ) -> None:
        """Delete the candidate entities nothing mentions any more and the candidate aliases
        nothing links any more; refresh mention counts. Only candidates are checked: a scan
        of every alias cost a pass over the table per batch, and Kùzu 0.11.3 reads an alias
        created by the same transaction past a node-group boundary (131,072 rows) as having
        no ALIAS_OF edge, so the scan tried to delete linked aliases."""
        if candidates:
            self._q("alias_links_delete_of_orphans", entity_ids=sorted(candidates))
            self._q("entities_delete_orphans", entity_ids=sorted(candidates))
        ids = sorted(candidates | (recount or set()))
        if ids:
            self._q("entities_count_mentions", ids=ids)
        if aliases:
            self._q("aliases_delete_orphans", names=aliases)

    def _delete(self, doc_ids: list[str]) -> None:
        """Remove documents and exactly what they contributed (inside the caller's tx)."""
        stored = self._read_stored(doc_ids)
        rels = fold_relations(stored.relations, [], doc_ids)
        links = fold_alias_links(stored.links, [], doc_ids)
        aliases = self._alias_candidates(stored.mentioned, links.delete)
        self._q_rows("relations_delete_keys", rels.delete)
        self._q_rows("relations_create", with_id_string(rels.create, "evidence"))
        self._q_rows("alias_links_delete_keys", links.delete)
        self._q_rows("alias_links_create", with_id_string(links.create, "doc_ids"))
        self._q("documents_delete_mentions", ids=doc_ids)
        chunks = stored.all_chunks()
        if chunks:
            self._q("chunks_delete", ids=sorted(chunks))
        for doc_id in sorted(stored.present):
            self._q("document_delete", id=doc_id)
        self._q("numeric_facts_delete", ids=doc_ids)
        self._cleanup(stored.mentioned, aliases)

    def _write_batch(self, graphs: Sequence[DocumentGraph]) -> None:
        """Write documents over their earlier versions (inside the caller's transaction)."""
        by_id = {g.document.id: g for g in graphs}  # a document twice in a batch: last wins
        batch = _Batch.of([by_id[d] for d in sorted(by_id)])
        stored, known = self._read_for_batch(batch)
        batch = batch.without(set(batch.entities) - known - batch.mentioned())
        rels = fold_relations(stored.relations, batch.relations, batch.doc_ids)
        links = fold_alias_links(stored.links, batch.links, batch.doc_ids)
        mentioned = batch.mentioned()
        candidates = (stored.mentioned | set(batch.entities)) - mentioned
        aliases = self._alias_candidates(candidates, links.delete)
        self._q_rows("relations_delete_keys", rels.delete)
        self._q_rows("alias_links_delete_keys", links.delete)
        self._write_nodes(batch, stored, known)
        self._write_edges(batch, stored, known, links.create, rels.create)
        # A document's numbers are replaced whole: deleted by document, created afresh.
        self._q("numeric_facts_delete", ids=batch.doc_ids)
        self._q_rows("numeric_facts_create", numeric_fact_rows(batch.graphs))
        # Orphan clean-up, never for an entity this batch mentions: the check reads MENTIONS
        # edges the transaction itself wrote. Stored entities the batch names without a
        # mention (relation or alias ends only) are candidates like the ones earlier versions
        # mentioned; new ones were never written (see ``_Batch.without``).
        self._cleanup(candidates, aliases, stored.mentioned | set(batch.entities) | mentioned)

    def _read_for_batch(self, batch: _Batch) -> tuple[_Stored, set[str]]:
        """Every read of a batch write, before any write: what its documents contributed
        before, and which of the entities and edges it names the store already has."""
        stored = self._read_stored(batch.doc_ids)
        referenced = set(batch.entities) | {r["entity_id"] for r in [*batch.links, *batch.mentions]}
        referenced |= {r[k] for r in batch.relations for k in ("source_id", "target_id")}
        known = (
            {r[0] for r in self._q("entities_existing", ids=sorted(referenced))}
            if referenced
            else set()
        )
        # An entity the store does not have yet has no edges to look up.
        new_ids = set(batch.entities) - known
        ask = [r for r in batch.relations if not {r["source_id"], r["target_id"]} & new_ids]
        if ask:
            stored.relations += self._q("relations_existing", rows=ask)
        ask = [r for r in batch.links if r["entity_id"] not in new_ids]
        if ask:
            stored.links += self._q("alias_links_existing", rows=ask)
        names = sorted({str(r["normalized"]) for r in batch.links})
        if names:
            stored.aliases = {r[0] for r in self._q("aliases_existing", names=names)}
        return stored, known

    def _write_nodes(self, batch: _Batch, stored: _Stored, known: set[str]) -> None:
        """Documents, chunks and entities: updated in place, or bulk-copied when new."""
        if stored.present:
            self._q("documents_delete_mentions", ids=sorted(stored.present))
        old_chunks = stored.all_chunks()
        gone = old_chunks - batch.chunk_ids
        if gone:
            self._q("chunks_delete", ids=sorted(gone))
        for g in batch.graphs:
            if g.document.id in stored.present:
                self._q("document_update", **document_params(g.document))
        # Rows read above to be new are bulk-copied (see tables.py).
        fresh_docs = [g.document for g in batch.graphs if g.document.id not in stored.present]
        if fresh_docs:
            self._q("documents_copy", rows=document_table(fresh_docs))
        fresh = [c for g in batch.graphs for c in g.chunks if c.id not in old_chunks]
        if fresh:
            self._q("chunks_copy", rows=chunk_table(fresh, self._dim))
            self._q("has_chunk_copy", rows=has_chunk_table(fresh))
        created = [e for i, e in batch.entities.items() if i not in known]
        if created:
            self._q("entities_copy", rows=entity_table(created, self._dim))

    def _write_edges(
        self,
        batch: _Batch,
        stored: _Stored,
        known: set[str],
        alias_links: list[Row],
        relations: list[Row],
    ) -> None:
        """Mentions, aliases and relations. Edges whose ends are known to exist once the
        nodes are written are copied; a row naming anything else goes through the MATCH ...
        CREATE statement, which drops it when an end is missing (normally none)."""
        entity_ok = known | set(batch.entities)
        entity_ok |= {x for r in stored.relations for x in r[:2]} | {r[2] for r in stored.links}
        alias_ok = {r[0] for r in stored.links} | {r["normalized"] for r in batch.links}
        copied, rest = _split(
            batch.mentions,
            lambda r: r["chunk_id"] in batch.chunk_ids and r["entity_id"] in entity_ok,
        )
        if copied:
            self._q("mentions_copy", rows=mention_table(copied))
        self._q_rows("mentions_create", rest)
        # New alias keys are copied (a MERGE per row scanned the whole table in Kùzu 0.11.3),
        # only those with a link to write: no alias is left bare, so the orphan check needs no
        # alias this transaction creates.
        have = stored.aliases | {r[0] for r in stored.links}
        names: dict[str, Row] = {}
        for row in alias_links:
            if row["normalized"] not in have and row["entity_id"] in entity_ok:
                names.setdefault(row["normalized"], row)
        if names:
            self._q("aliases_copy", rows=alias_table(list(names.values())))
        copied, rest = _split(
            alias_links, lambda r: r["normalized"] in alias_ok and r["entity_id"] in entity_ok
        )
        if copied:
            self._q("alias_links_copy", rows=alias_of_table(copied))
        self._q_rows("alias_links_create", with_id_string(rest, "doc_ids"))
        copied, rest = _split(
            relations, lambda r: r["source_id"] in entity_ok and r["target_id"] in entity_ok
        )
        if copied:
            self._q("relations_copy", rows=related_table(copied))
        self._q_rows("relations_create", with_id_string(rest, "evidence"))

    def _write_same_as(self, rows: list[Row]) -> None:
        """SAME_AS pairs (``same_as_rows``): a new pair is bulk-copied, a stored one takes the
        stronger score; a pair whose end the store lacks is skipped. A MERGE or CREATE per row
        after matching both ends by key cost about 7 ms a row (5,000 pairs in 37,000
        entities), the copy and the keyed reads a few ms in all."""
        if not rows:
            return
        ends = sorted({r[k] for r in rows for k in ("source_id", "target_id")})
        known = {r[0] for r in self._q("entities_existing", ids=ends)}
        rows = [r for r in rows if r["source_id"] in known and r["target_id"] in known]
        if not rows:
            return
        stored = {(r[0], r[1]): float(r[2]) for r in self._q("same_as_existing", rows=rows)}
        fresh: list[Row] = []
        stronger: list[Row] = []
        for r in rows:
            old = stored.get((r["source_id"], r["target_id"]))
            if old is None:
                fresh.append(r)
            elif r["score"] > old:
                stronger.append(r)
        if fresh:
            self._q("same_as_copy", rows=same_as_table(fresh))
        self._q_rows("same_as_raise", stronger)


def _split(rows: list[Row], ok: Callable[[Row], bool]) -> tuple[list[Row], list[Row]]:
    yes: list[Row] = []
    no: list[Row] = []
    for r in rows:
        (yes if ok(r) else no).append(r)
    return yes, no
