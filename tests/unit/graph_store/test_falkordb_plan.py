"""Pure parts of the FalkorDB adapter: the write plan, full-text query words, index checks."""

from __future__ import annotations

import cypher
from graph_store.falkordb import plan
from graph_store.falkordb.reads import fulltext_query
from tests.integration.tiny_graphs import DIM, graph


def test_a_new_batch_skips_every_scan_and_folds_shared_rows() -> None:
    a = graph("a", ["x"], ["s", "t"], [("s", "t")])
    b = graph("b", ["y"], ["s", "t"], [("s", "t")])
    batch = plan.Batch.of([a, b, a], DIM)
    assert batch.doc_ids == ["a", "b"]
    assert [(r["normalized"], r["doc_ids"]) for r in batch.aliases] == [
        ("s", ["a", "b"]),
        ("t", ["a", "b"]),
    ]
    assert len(batch.relations) == 1 and len(batch.relations[0]["evidence"]) == 2
    names = [name for name, _ in plan.upsert(batch, plan.Stored())]
    assert "aliases_strip_documents" not in names and "aliases_delete_orphans" not in names
    assert names[0] == "documents_merge"


def test_a_replaced_document_takes_back_its_evidence_by_chunk_id() -> None:
    stored = plan.Stored(present=["a"], chunks={"a-0000-1"}, mentioned={"s"})
    batch = plan.Batch.of([graph("a", ["new"], ["t"], [])], DIM)
    queries = dict(plan.upsert(batch, stored))
    assert queries["relations_strip_chunks"] == {"entity_ids": ["s"], "chunk_ids": ["a-0000-1"]}
    assert queries["chunks_delete"] == {"ids": ["a-0000-1"]}
    assert queries["entities_delete_orphans"] == {"entity_ids": ["s"]}


def test_fulltext_query_is_any_of_the_words() -> None:
    assert fulltext_query("Who's the  Café-owner? (1999)") == "who|s|the|café|owner|1999"
    assert fulltext_query(" ?! ") == ""


def test_index_missing_reads_every_schema_statement() -> None:
    statements = cypher.statements("falkordb", "schema")
    assert all(plan.index_missing(s, set()) for s in statements)
    indexed = {
        ("Chunk", "id", "RANGE"),
        ("Chunk", "embedding", "VECTOR"),
        ("Chunk", "text", "FULLTEXT"),
    }
    missing = [s for s in statements if plan.index_missing(s, indexed)]
    assert len(missing) == len(statements) - 3


def test_params_travel_in_the_query_header_escaped() -> None:
    text = plan.with_params("RETURN $x", {"x": "a'b", "n": [1, 2]})
    assert text.startswith("CYPHER x=") and text.endswith(" RETURN $x") and "n=[1,2]" in text
