"""Pure parts of the FalkorDB adapter: the write plan, full-text words and BM25, index checks."""

from __future__ import annotations

import math

import pytest

import cypher
from graph_store.falkordb import plan
from graph_store.falkordb.lexical import Bm25, words
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


def test_fulltext_words_take_any_script_and_drop_stop_words_and_syntax() -> None:
    assert words("Who's the  Café-owner? (1999) AND") == ["who", "s", "café", "owner", "1999"]
    assert words(" ?! ") == []


def test_bm25_matches_its_formula_and_ranks_any_word() -> None:
    bm25 = Bm25(["keeper bell bell", "harbour fees harbour", "river harbour", ""])
    # "keeper" (df 1 of 4, tf 1, length 3 against the mean 2): Lucene IDF, k1 1.2, b 0.75.
    idf = math.log1p((4 - 1 + 0.5) / (1 + 0.5))
    norm = 1.2 * (1 - 0.75 + 0.75 * 3 / 2)
    [(row, score)] = bm25.top("the keeper", 5)
    assert row == 0 and score == pytest.approx(idf * 2.2 / (1 + norm))
    assert [i for i, _ in bm25.top("Keeper of the harbour?", 5)] == [0, 1, 2]
    assert [i for i, _ in bm25.top("keeper harbour", 1)] == [0]
    assert bm25.top("nothing here", 5) == [] and Bm25([]).top("x", 3) == []


def test_index_missing_reads_every_schema_statement() -> None:
    statements = cypher.statements("falkordb", "schema")
    assert all(plan.index_missing(s, set()) for s in statements)
    # A full-text index an earlier schema made is listed too, and asks for nothing.
    indexed = {
        ("Chunk", "id", "RANGE"),
        ("Chunk", "embedding", "VECTOR"),
        ("Chunk", "text", "FULLTEXT"),
    }
    missing = [s for s in statements if plan.index_missing(s, indexed)]
    assert len(missing) == len(statements) - 2


def test_params_travel_in_the_query_header_escaped() -> None:
    text = plan.with_params("RETURN $x", {"x": "a'b", "n": [1, 2]})
    assert text.startswith("CYPHER x=") and text.endswith(" RETURN $x") and "n=[1,2]" in text
