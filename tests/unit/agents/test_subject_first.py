"""A parallel document (the same kind about another organisation) goes behind the asked
organisation's own document of that kind. Invented documents: a water company (KVW) and an
energy company (MCE), each with priorities and an annual plan."""

from __future__ import annotations

from agents.docmeta import DocMeta
from agents.evidence import subject_first
from agents.models import EvidenceItem, Tag

KVW, MCE = "ent-kvw", "ent-mce"
META = {
    "kvw-pri": DocMeta(kind="priorities", subject_ids=frozenset({KVW})),
    "kvw-plan": DocMeta(kind="annual plan", subject_ids=frozenset({KVW})),
    "mce-pri": DocMeta(kind="priorities", subject_ids=frozenset({MCE})),
    "mce-plan": DocMeta(kind="annual plan", subject_ids=frozenset({MCE})),
    "national": DocMeta(kind="", subject_ids=frozenset()),
}


def _item(chunk_id: str, tag: Tag = "PRIMARY") -> EvidenceItem:
    return EvidenceItem(
        chunk_id=chunk_id,
        doc_id=chunk_id.rsplit("#", 1)[0],
        doc_title="",
        text="",
        score=0.0,
        tag=tag,
    )


def _meta(chunk_id: str) -> DocMeta:
    return META[chunk_id.rsplit("#", 1)[0]]


def _order(items: list[EvidenceItem], per_kind: int = 3) -> list[str]:
    return [i.chunk_id for i in subject_first(items, _meta, frozenset({KVW}), per_kind)]


def test_a_parallel_chunk_goes_right_behind_the_own_document_of_its_kind() -> None:
    items = [
        _item("kvw-pri#0"),
        _item("kvw-plan#0"),
        _item("mce-pri#0", "STRATEGIC"),  # reached through a high-authority entity
        _item("national#0", "STRATEGIC"),
        _item("kvw-pri#1"),
        _item("mce-plan#0", "GENERAL"),
        _item("kvw-plan#1"),
    ]
    assert _order(items) == [
        "kvw-pri#0",
        "kvw-plan#0",
        "national#0",
        "kvw-pri#1",
        "mce-pri#0",
        "kvw-plan#1",
        "mce-plan#0",
    ]


def test_a_parallel_chunk_that_mentions_the_subject_stays() -> None:
    items = [_item("mce-pri#0", "PRIMARY"), _item("kvw-pri#0")]
    assert _order(items) == ["mce-pri#0", "kvw-pri#0"]


def test_only_the_first_chunks_of_the_own_document_hold_a_parallel_one_back() -> None:
    items = [
        _item("kvw-pri#0"),
        _item("mce-pri#0", "GENERAL"),
        _item("kvw-pri#1"),
        _item("kvw-pri#2"),
    ]
    assert _order(items, per_kind=2) == ["kvw-pri#0", "kvw-pri#1", "mce-pri#0", "kvw-pri#2"]
    assert _order(items, per_kind=0) == [i.chunk_id for i in items]


def test_nothing_moves_without_the_subject_s_own_document_of_that_kind() -> None:
    items = [_item("mce-pri#0", "GENERAL"), _item("kvw-plan#0"), _item("national#0", "GENERAL")]
    assert _order(items) == ["mce-pri#0", "kvw-plan#0", "national#0"]
