"""The write side of the Neo4j adapter: transaction functions that replace or delete one
document with everything it contributed.

They run inside a managed write transaction (``tx``), which the driver may retry as a whole;
every statement is MERGE-based or deletes by id, so a retry converges on the same graph.
Provenance: ``RELATED.evidence`` holds chunk ids, which start with ``"<doc id>-"``, and
``ALIAS_OF.doc_ids`` holds document ids; a document's contribution is taken back by removing
those, and relations, alias links, entities and aliases left with no support are deleted.
"""

from __future__ import annotations

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


def _detach(tx: Any, doc_id: str) -> tuple[set[str], set[str]]:
    """Take back what a stored document contributed, keeping its chunk nodes.

    Returns (entities it mentioned, its chunk ids) for the clean-up after the write."""
    touched = {r[0] for r in tq(tx, "document_mentioned_entities", id=doc_id)}
    if touched:
        tq(tx, "relations_strip_document", prefix=f"{doc_id}-", entity_ids=sorted(touched))
    tq(tx, "aliases_strip_document", doc_id=doc_id)
    tq(tx, "document_delete_mentions", id=doc_id)
    tq(tx, "document_delete_next", id=doc_id)
    chunk_ids = {r[0] for r in tq(tx, "document_chunk_ids", id=doc_id)}
    return touched, chunk_ids


def _cleanup(tx: Any, entity_ids: set[str]) -> None:
    ids = sorted(entity_ids)
    if ids:
        tq(tx, "relations_delete_unsupported", entity_ids=ids)
    tq(tx, "aliases_delete_unsupported")
    if ids:
        tq(tx, "entities_delete_orphans", entity_ids=ids)
        tq(tx, "entities_count_mentions", ids=ids)
    tq(tx, "aliases_delete_orphans")


def delete_document(tx: Any, doc_id: str) -> None:
    touched, chunk_ids = _detach(tx, doc_id)
    if chunk_ids:
        tq(tx, "chunks_delete", ids=sorted(chunk_ids))
    tq(tx, "document_delete", id=doc_id)
    tq(tx, "numeric_facts_delete", ids=[doc_id])
    _cleanup(tx, touched)


def replace_document(tx: Any, graph: DocumentGraph, dim: int) -> None:
    doc_id = graph.document.id
    touched, old_chunks = _detach(tx, doc_id)
    gone = old_chunks - {c.id for c in graph.chunks}
    if gone:
        tq(tx, "chunks_delete", ids=sorted(gone))
    tq(tx, "document_merge", **document_params(graph.document))
    tq_rows(tx, "chunks_merge", chunk_rows(graph.chunks, dim))
    tq_rows(tx, "next_merge", next_rows(graph.chunks))
    entities = {e.id: e for e in reversed(graph.entities)}  # the first occurrence wins
    # The resolver embeds only entities new to the graph (extraction/resolution.py): one the
    # graph has comes without an embedding and keeps its own (entities_merge sets it on create
    # only). Such an entity must exist; re-ingesting a deleted document's shared entities
    # failed here with "has a 0-d embedding" before.
    bare = sorted(i for i, e in entities.items() if not e.embedding)
    if bare:
        missing = set(bare) - {r[0] for r in tq(tx, "entities_existing", ids=bare)}
        if missing:
            raise StoreError(f"entity {min(missing)} is not in the graph and has no embedding")
    rows = [entity_row(e, dim) for e in entities.values() if e.embedding]
    tq_rows(tx, "entities_merge", rows)
    mentions = [
        {"chunk_id": m.chunk_id, "entity_id": m.entity_id, "count": m.count} for m in graph.mentions
    ]
    tq_rows(tx, "mentions_merge", mentions)
    tq_rows(tx, "aliases_merge", alias_rows(graph.aliases, doc_id))
    tq_rows(tx, "relations_merge", relation_rows(graph.relations))
    tq(tx, "numeric_facts_delete", ids=[doc_id])
    tq_rows(tx, "numeric_facts_merge", numeric_fact_rows([graph]))
    _cleanup(tx, touched | set(entities))
