"""The write side of the Neo4j adapter: transaction functions that replace or delete a batch
of documents with everything they contributed.

They run inside a managed write transaction (``tx``), which the driver may retry as a whole;
every statement is MERGE-based or deletes by id, so a retry converges on the same graph.
A batch costs a fixed number of statements whatever its size: each step is one ``UNWIND`` (or
one ``IN $ids``) over every document of the batch, never one round trip per document.
Provenance: ``RELATED.evidence`` holds chunk ids, which start with ``"<doc id>-"``, and
``ALIAS_OF.doc_ids`` holds document ids; a document's contribution is taken back by removing
those, and relations, alias links, entities and aliases left with no support are deleted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cypher
from core.errors import StoreError
from graph_schema import DocumentGraph
from graph_store.neo4j.rows import next_rows
from graph_store.rows import (
    alias_rows,
    chunk_rows,
    document_params,
    entity_row,
    numeric_fact_rows,
    relation_rows,
)


def tq(tx: Any, name: str, **params: Any) -> list[list[Any]]:
    """Run the named query ``cypher/neo4j/<name>.cypher`` inside a transaction function."""
    rows: list[list[Any]] = tx.run(cypher.load("neo4j", name), params).values()
    return rows


def tq_rows(tx: Any, name: str, rows: list[dict[str, Any]]) -> None:
    if rows:  # an UNWIND over nothing is a wasted round trip
        tq(tx, name, rows=rows)


def _detach(tx: Any, doc_ids: list[str]) -> tuple[bool, set[str], set[str]]:
    """Take back what the stored documents among ``doc_ids`` contributed, keeping their chunk
    nodes. Returns (whether any was stored, entities they mentioned, their chunk ids); no
    query past the first for documents the graph does not hold (a first ingest)."""
    stored = sorted({r[0] for r in tq(tx, "documents_existing", ids=doc_ids)})
    if not stored:
        return False, set(), set()
    touched = {r[0] for r in tq(tx, "documents_mentioned_entities", ids=stored)}
    if touched:
        prefixes = [f"{d}-" for d in stored]
        tq(tx, "relations_strip_documents", prefixes=prefixes, entity_ids=sorted(touched))
    tq(tx, "aliases_strip_documents", doc_ids=stored)
    tq(tx, "documents_delete_mentions", ids=stored)
    tq(tx, "documents_delete_next", ids=stored)
    chunk_ids = {r[0] for r in tq(tx, "documents_chunk_ids", ids=stored)}
    return True, touched, chunk_ids


def _cleanup(tx: Any, touched: set[str], entity_ids: set[str], detached: bool) -> None:
    """Delete what lost its support. Only a detach empties evidence or alias provenance, and
    only a detach or an orphaned entity leaves an alias without links, so the whole-graph
    alias scans run only then."""
    if touched:
        tq(tx, "relations_delete_unsupported", entity_ids=sorted(touched))
    if detached:
        tq(tx, "aliases_delete_unsupported")
    ids = sorted(touched | entity_ids)
    orphans = 0
    if ids:
        orphans = int(tq(tx, "entities_delete_orphans", entity_ids=ids)[0][0])
        tq(tx, "entities_count_mentions", ids=ids)
    if detached or orphans:
        tq(tx, "aliases_delete_orphans")


def delete_documents(tx: Any, doc_ids: Sequence[str]) -> None:
    ids = sorted(set(doc_ids))
    detached, touched, chunk_ids = _detach(tx, ids)
    if not detached:
        return
    if chunk_ids:
        tq(tx, "chunks_delete", ids=sorted(chunk_ids))
    tq(tx, "documents_delete", ids=ids)
    tq(tx, "numeric_facts_delete", ids=ids)
    _cleanup(tx, touched, set(), detached)


def replace_documents(tx: Any, graphs: Sequence[DocumentGraph], dim: int) -> None:
    """Write ``graphs`` as the new versions of their documents, in a fixed number of
    statements. A document id given twice keeps its last graph, as sequential replaces did."""
    by_id = {g.document.id: g for g in graphs}
    graphs = list(by_id.values())
    doc_ids = sorted(by_id)
    detached, touched, old_chunks = _detach(tx, doc_ids)
    gone = old_chunks - {c.id for g in graphs for c in g.chunks}
    if gone:
        tq(tx, "chunks_delete", ids=sorted(gone))
    tq_rows(tx, "documents_merge", [document_params(g.document) for g in graphs])
    tq_rows(tx, "chunks_merge", [r for g in graphs for r in chunk_rows(g.chunks, dim)])
    tq_rows(tx, "next_merge", [r for g in graphs for r in next_rows(g.chunks)])
    # The first occurrence of an entity wins (entities_merge sets its fields on create only).
    entities: dict[str, Any] = {}
    for g in graphs:
        for e in g.entities:
            if e.id not in entities or (e.embedding and not entities[e.id].embedding):
                entities[e.id] = e
    # The resolver embeds only entities new to the graph (extraction/resolution.py): one the
    # graph has comes without an embedding and keeps its own. Such an entity must exist;
    # re-ingesting a deleted document's shared entities failed here with "has a 0-d
    # embedding" before.
    bare = sorted(i for i, e in entities.items() if not e.embedding)
    if bare:
        missing = set(bare) - {r[0] for r in tq(tx, "entities_existing", ids=bare)}
        if missing:
            raise StoreError(f"entity {min(missing)} is not in the graph and has no embedding")
    tq_rows(tx, "entities_merge", [entity_row(e, dim) for e in entities.values() if e.embedding])
    mentions = [
        {"chunk_id": m.chunk_id, "entity_id": m.entity_id, "count": m.count}
        for g in graphs
        for m in g.mentions
    ]
    tq_rows(tx, "mentions_merge", mentions)
    tq_rows(tx, "aliases_merge", [r for g in graphs for r in alias_rows(g.aliases, g.document.id)])
    tq_rows(tx, "relations_merge", [r for g in graphs for r in relation_rows(g.relations)])
    if detached:
        tq(tx, "numeric_facts_delete", ids=doc_ids)
    tq_rows(tx, "numeric_facts_merge", numeric_fact_rows(graphs))
    _cleanup(tx, touched, set(entities), detached)
