"""Backend-neutral shaping of explore results: lookup tiers, paths, schema text."""

from __future__ import annotations

import pytest

from core.errors import InputError
from graph_store.explore_core import check_path_hops, distinct_paths, graph_path, merge_lookup
from graph_store.explore_types import GraphPath, PropertyInfo, SchemaDescription, TableInfo
from graph_store.types import EntityHit


def test_lookup_tiers_keep_one_hit_per_entity_with_falling_scores() -> None:
    exact = [("e1", "Trust", "ORG", "NMHT", "nmht")]
    prefix = [
        ("e2", "NMHT Plan", "DOC", "NMHT Plan", "nmht plan"),
        ("e1", "Trust", "ORG", "NMHT Trust", "nmht trust"),
        ("e3", "NMHT Priorities", "DOC", "NMHT Priorities", "nmht priorities"),
    ]
    fulltext = [
        EntityHit("e4", "Chair of NMHT", "", 1.0, matched="Chair of NMHT"),
        EntityHit("e2", "NMHT Plan", "", 3.0, matched="NMHT Plan"),
        EntityHit("e5", "NMHT and NCCT", "", 2.0, matched="NMHT and NCCT"),
    ]
    hits = merge_lookup(exact, prefix, fulltext, "nmht", 10)
    assert [h.entity_id for h in hits] == ["e1", "e2", "e3", "e5", "e4"]
    scores = [h.score for h in hits]
    assert scores[0] == 1.0 and scores == sorted(scores, reverse=True)
    assert hits[0].matched == "NMHT"
    assert [h.entity_id for h in merge_lookup(exact, prefix, fulltext, "nmht", 2)] == ["e1", "e2"]


def path(ids: list[str], edges: list[tuple[bool, str, float]]) -> GraphPath:
    nodes = [(i, i.upper(), "") for i in ids]
    return graph_path(nodes, [(f, t, w, ()) for f, t, w in edges])


def test_paths_keep_direction_and_collapse_parallel_relations() -> None:
    co = path(["a", "b", "c"], [(True, "CO_OCCURS", 0.2), (False, "CO_OCCURS", 0.2)])
    typed = path(["a", "b", "c"], [(True, "MEMBER_OF", 1.0), (False, "CO_OCCURS", 0.2)])
    other = path(["a", "d", "c"], [(True, "LEADS", 1.0), (True, "PART_OF", 1.0)])
    found = distinct_paths([co, typed, other], limit=5)
    assert [[n.id for n in p.nodes] for p in found] == [["a", "b", "c"], ["a", "d", "c"]]
    first = found[0]
    assert [(e.source, e.target, e.type) for e in first.edges] == [
        ("a", "b", "MEMBER_OF"),
        ("c", "b", "CO_OCCURS"),
    ]
    assert first.hops == 2 and [n.hops for n in first.nodes] == [0, 1, 2]
    assert len(distinct_paths([co, other], limit=1)) == 1


@pytest.mark.parametrize("hops", [1, 2, 3])
def test_hops_in_range(hops: int) -> None:
    assert check_path_hops(hops) == hops


@pytest.mark.parametrize("hops", [0, 4, -2, True, 2.0])
def test_hops_out_of_range(hops: object) -> None:
    with pytest.raises(InputError, match="max_hops"):
        check_path_hops(hops)  # type: ignore[arg-type]


def test_schema_text_names_labels_relations_and_values() -> None:
    schema = SchemaDescription(
        dialect="kuzu",
        nodes=(TableInfo("Entity", (PropertyInfo("id", "STRING"),)),),
        relationships=(
            TableInfo("RELATED", (PropertyInfo("type", "STRING"),), "Entity", "Entity"),
            TableInfo("HAS_CHUNK", (), "Document", "Chunk"),
        ),
        relation_types=("MEMBER_OF", "LEADS"),
        entity_types=("ORG",),
    )
    text = schema.as_text()
    assert "- (:Entity {id: STRING})" in text
    assert "- (:Entity)-[:RELATED {type: STRING}]->(:Entity)" in text
    assert "- (:Document)-[:HAS_CHUNK]->(:Chunk)" in text
    assert "MEMBER_OF, LEADS" in text and "ORG" in text
