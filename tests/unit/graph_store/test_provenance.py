from __future__ import annotations

from graph_store.kuzu.provenance import fold_alias_links, fold_relations


def _rel(s: str, t: str, evidence: list[str], weight: float = 1.0) -> dict[str, object]:
    return {
        "source_id": s,
        "target_id": t,
        "type": "PART_OF",
        "weight": weight,
        "evidence": evidence,
        "extractor": "x",
    }


def test_relations_lose_exactly_the_rewritten_documents_evidence() -> None:
    stored = [
        ("a", "b", "PART_OF", 1.0, ["d1-0", "d2-0"], "x"),
        ("a", "c", "PART_OF", 0.5, ["d1-1"], "x"),
    ]
    folded = fold_relations(stored, [], ["d1"])
    assert [(r["source_id"], r["target_id"]) for r in folded.delete] == [("a", "b"), ("a", "c")]
    assert [(r["target_id"], r["evidence"]) for r in folded.create] == [("b", ["d2-0"])]


def test_a_key_read_twice_or_stored_twice_is_written_once() -> None:
    stored = [
        ("a", "b", "PART_OF", 0.5, ["d2-0"], "x"),
        ("a", "b", "PART_OF", 0.7, ["d3-0", "d1-0"], "x"),  # a duplicate edge in the store
    ]
    new = [_rel("a", "b", ["d1-4"], 0.6)]
    folded = fold_relations(stored, new, ["d1"])
    assert len(folded.delete) == 1
    [row] = folded.create
    assert row["evidence"] == ["d1-4", "d2-0", "d3-0"] and row["weight"] == 0.7


def test_document_prefixes_do_not_match_longer_ids() -> None:
    stored = [("a", "b", "PART_OF", 1.0, ["d1-0", "d10-0"], "x")]
    [row] = fold_relations(stored, [], ["d1"]).create
    assert row["evidence"] == ["d10-0"]


def test_alias_links_keep_other_documents_and_take_the_batch_reading() -> None:
    stored = [
        ("nhs", "NHS", "e1", "exact", 0.9, ["d1", "d2"]),
        ("trust", "Trust", "e2", "exact", 1.0, ["d1"]),
    ]
    new = [
        {
            "normalized": "nhs",
            "name": "NHS",
            "entity_id": "e1",
            "method": "llm",
            "confidence": 0.6,
            "doc_ids": ["d1"],
        },
        {
            "normalized": "nhs",
            "name": "NHS",
            "entity_id": "e1",
            "method": "rule",
            "confidence": 0.8,
            "doc_ids": ["d3"],
        },
    ]
    folded = fold_alias_links(stored, new, ["d1", "d3"])
    assert {(r["normalized"], r["entity_id"]) for r in folded.delete} == {
        ("nhs", "e1"),
        ("trust", "e2"),
    }
    [row] = folded.create
    assert row["doc_ids"] == ["d1", "d2", "d3"]
    assert (row["method"], row["confidence"]) == ("rule", 0.8)
