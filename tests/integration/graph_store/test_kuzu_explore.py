"""Explore capabilities of the embedded store on the demo graph: alias-aware lookup, entity
details, edge evidence and shortest paths."""

from __future__ import annotations

import json

import pytest

from core.errors import InputError, NotFoundError
from core.names import normalize_name
from graph_store.explore_port import GraphExplorer
from kg.container import Container
from tests.conftest import FIXTURES

EXPECTED = json.loads((FIXTURES / "demo_expected.json").read_text(encoding="utf-8"))


def entity_id(store: GraphExplorer, name: str) -> str:
    """The id of the entity ``name`` is an alias of (its own name is one too)."""
    hits = store.lookup_entities(name, 1)
    assert hits and hits[0].score == 1.0, (name, hits)
    return hits[0].entity_id


@pytest.mark.parametrize(("alias", "canonical"), EXPECTED["aliases"])
def test_lookup_puts_the_entity_an_alias_names_first(
    explorer: GraphExplorer, alias: str, canonical: str
) -> None:
    hits = explorer.lookup_entities(alias, 5)
    assert hits[0].name == canonical
    assert hits[0].matched == alias and hits[0].score == 1.0
    assert len({h.entity_id for h in hits}) == len(hits)  # one hit per entity


def test_lookup_is_normalised_and_ranked(explorer: GraphExplorer) -> None:
    # Case, punctuation and a leading article do not matter for the exact tier.
    assert explorer.lookup_entities("  the northdale-minds! ", 3)[0].name == (
        "Northdale Mental Health Trust"
    )
    hits = explorer.lookup_entities("Northdale Men", 10)
    assert hits, "a typed prefix finds aliases"
    assert all(normalize_name(h.matched).startswith("northdale men") for h in hits[:2])
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    words = explorer.lookup_entities("mental health collaborative", 10)
    assert "Northdale Mental Health Collaborative" in {h.name for h in words}
    many = explorer.lookup_entities("northdale", 50)
    assert len(many) > 2 and explorer.lookup_entities("northdale", 2) == many[:2]
    assert explorer.lookup_entities("qqqxxzz", 5) == []
    assert explorer.lookup_entities("  ?! ", 5) == []


def test_entity_details(explorer: GraphExplorer) -> None:
    eid = entity_id(explorer, "Northdale Mental Health Trust")
    d = explorer.entity_details(eid)
    assert (d.id, d.name) == (eid, "Northdale Mental Health Trust")
    expected = {a for a, canonical in EXPECTED["aliases"] if canonical == d.name}
    assert expected <= set(d.aliases)
    assert d.mentions > 0 and d.pagerank >= 0.0
    assert d.documents and sum(doc.mentions for doc in d.documents) <= d.mentions
    counts = [doc.mentions for doc in d.documents]
    assert counts == sorted(counts, reverse=True)
    assert EXPECTED["trust_priorities_title"] in {doc.title for doc in d.documents}
    with pytest.raises(NotFoundError):
        explorer.entity_details("ent-missing")


@pytest.mark.parametrize(("source", "kind", "target"), EXPECTED["relations"][:4])
def test_edge_evidence_shows_type_and_chunks(
    explorer: GraphExplorer, source: str, kind: str, target: str
) -> None:
    a, b = entity_id(explorer, source), entity_id(explorer, target)
    edges = explorer.edge_evidence(a, b)
    typed = [e for e in edges if e.type == kind]
    assert typed and (typed[0].source, typed[0].target) == (a, b)
    assert typed[0].evidence, "every extracted relation cites its chunks"
    for chunk in typed[0].evidence:
        assert chunk.text and chunk.doc_title and chunk.chunk_id.startswith(chunk.doc_id)
    weights = [e.weight for e in edges]
    assert weights == sorted(weights, reverse=True)
    # Clicking the edge from the other end shows the same relations.
    back = explorer.edge_evidence(b, a)
    assert {(e.source, e.target, e.type) for e in back} == {
        (e.source, e.target, e.type) for e in edges
    }
    with pytest.raises(NotFoundError):
        explorer.edge_evidence(a, "ent-missing")


def test_paths_follow_relations_within_the_hop_bound(explorer: GraphExplorer) -> None:
    names = EXPECTED["graph_path"][1:]  # NHCP → Joint Forward Plan → national plan
    start = entity_id(explorer, "Northdale Mental Health Trust")
    goal = entity_id(explorer, names[-1])
    found = explorer.paths(start, goal, 3)
    assert found, "the trust reaches the national plan in three hops"
    shortest = min(p.hops for p in found)
    assert all(p.hops == shortest <= 3 for p in found)
    for p in found:
        assert p.nodes[0].id == start and p.nodes[-1].id == goal
        assert [n.hops for n in p.nodes] == list(range(len(p.nodes)))
        for i, e in enumerate(p.edges):
            assert {e.source, e.target} == {p.nodes[i].id, p.nodes[i + 1].id}
            assert e.type
    routes = [tuple(n.id for n in p.nodes) for p in found]
    assert len(routes) == len(set(routes)), "one path per route"
    if shortest > 1:
        assert explorer.paths(start, goal, shortest - 1) == []
    hop = explorer.paths(start, entity_id(explorer, names[0]), 1)
    assert hop and hop[0].hops == 1 and hop[0].edges[0].type == "MEMBER_OF"
    assert len(explorer.paths(start, goal, 3, limit=1)) == 1
    assert explorer.paths(start, start, 2)[0].hops == 0


@pytest.mark.parametrize("bad", [0, 4, -1, True])
def test_paths_refuse_hops_out_of_range(explorer: GraphExplorer, bad: int) -> None:
    eid = entity_id(explorer, "Northdale Mental Health Trust")
    with pytest.raises(InputError):
        explorer.paths(eid, eid, bad)


def test_paths_of_unknown_entity(explorer: GraphExplorer) -> None:
    eid = entity_id(explorer, "Northdale Mental Health Trust")
    with pytest.raises(NotFoundError):
        explorer.paths(eid, "ent-missing", 2)


def test_schema_description_is_read_from_the_store(
    explore_demo: Container, explorer: GraphExplorer
) -> None:
    schema = explorer.describe_schema()
    assert schema.dialect == "kuzu"
    nodes = {t.name: {p.name for p in t.properties} for t in schema.nodes}
    assert {"Document", "Chunk", "Entity", "Alias"} <= set(nodes)
    assert "Meta" not in nodes
    assert "embedding" not in nodes["Chunk"] | nodes["Entity"]
    related = next(t for t in schema.relationships if t.name == "RELATED")
    assert (related.source, related.target) == ("Entity", "Entity")
    assert {"type", "weight", "evidence"} <= {p.name for p in related.properties}
    stored = [kind for _, _, kind, _ in explore_demo.store.export_graph().relations]
    assert set(schema.relation_types) == set(stored)
    assert schema.relation_types[0] == max(set(stored), key=stored.count)
    text = schema.as_text()
    assert "(:Entity)-[:RELATED" in text and "MEMBER_OF" in text
