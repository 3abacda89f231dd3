"""SAME_AS pairs of one ingest call, asked for by the entities of each document
(extraction.merging.SameAsEdges)."""

from __future__ import annotations

from extraction.merging import SameAsEdges


def test_the_pairs_touching_some_entities_come_once_each_in_the_order_first_added() -> None:
    edges = SameAsEdges()
    edges.add("e3", "e1", 0.8, "similarity")  # stored as (e1, e3)
    edges.add("e2", "e4", 0.9, "alias")
    edges.add("e1", "e2", 0.7, "short_form")
    edges.add("e3", "e1", 0.85, "alias")  # a better score keeps the pair's place
    edges.add("e5", "e5", 1.0, "alias")  # an entity is not its own SAME_AS
    assert len(edges) == 3
    got = edges.touching({"e1", "e2"})
    assert [pair for pair, _ in got] == [("e1", "e3"), ("e2", "e4"), ("e1", "e2")]
    assert got[0][1].score == 0.85 and got[0][1].method == "alias"
    assert [pair for pair, _ in edges.touching(["e4"])] == [("e2", "e4")]
    assert edges.touching({"e5", "e9"}) == []
    # The same pairs a scan of every pair finds.
    for ids in ({"e1"}, {"e3", "e4"}, {"e2"}):
        scan = [(p, e) for p, e in edges.items() if p[0] in ids or p[1] in ids]
        assert edges.touching(ids) == scan
