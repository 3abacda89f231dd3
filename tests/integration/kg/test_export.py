"""The GraphML export read back with networkx, as Gephi or a Neo4j import would: entity
types, PageRank and aliases, Document nodes with their metadata, relation types and evidence."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from graph_store.explore_port import GraphExplorer
from kg.container import Container
from kg.export import LIST_SEPARATOR, to_graphml, to_json


def test_graphml_carries_what_graph_tools_colour_and_size_by(
    demo_container: Container, tmp_path: Path
) -> None:
    store = demo_container.store
    assert isinstance(store, GraphExplorer)
    path = tmp_path / "kg.graphml"
    path.write_text(to_graphml(store.export_graph(), store.graph_details()), encoding="utf-8")
    g = nx.read_graphml(path, force_multigraph=True)

    kinds = {
        k: [n for n, d in g.nodes(data=True) if d["kind"] == k]
        for k in ("Entity", "Chunk", "Document")
    }
    counts = store.counts()
    assert (len(kinds["Entity"]), len(kinds["Chunk"]), len(kinds["Document"])) == (
        counts.entities,
        counts.chunks,
        counts.documents,
    )
    nmht = store.lookup_entities("NMHT", 1)[0]
    entity = g.nodes[nmht.entity_id]
    details = store.entity_details(nmht.entity_id)
    assert entity["label"] == details.name and entity["labels"] == ":Entity"
    assert entity["type"] == details.type != ""
    assert entity["pagerank"] == details.pagerank > 0
    assert set(entity["aliases"].split(LIST_SEPARATOR)) == set(details.aliases)
    assert all(g.nodes[n]["type"] for n in kinds["Entity"])

    doc = g.nodes[details.documents[0].id]
    assert doc["title"] == details.documents[0].title and {"date", "doc_type", "uri"} <= doc.keys()
    has_chunk = [(a, b) for a, b, d in g.edges(data=True) if d["type"] == "HAS_CHUNK"]
    assert len(has_chunk) == counts.chunks
    assert all(g.nodes[a]["kind"] == "Document" and g.nodes[b]["text"] for a, b in has_chunk)

    related = [
        d for _, _, d in g.edges(data=True) if d["type"] not in ("HAS_CHUNK", "MENTIONS", "NEXT")
    ]
    assert len(related) == counts.relations
    assert all(d["evidence"] and d["extractor"] for d in related)
    assert all(c in kinds["Chunk"] for d in related for c in d["evidence"].split(LIST_SEPARATOR))


def test_json_keeps_its_shape_and_gains_the_same_details(demo_container: Container) -> None:
    store = demo_container.store
    assert isinstance(store, GraphExplorer)
    exported = json.loads(to_json(store.export_graph(), store.graph_details()))
    by_label: dict[str, int] = {}
    for n in exported["nodes"]:
        by_label[n["label"]] = by_label.get(n["label"], 0) + 1
    counts = store.counts()
    assert by_label == {
        "Document": counts.documents,
        "Chunk": counts.chunks,
        "Entity": counts.entities,
    }
    mention = next(e for e in exported["edges"] if e["type"] == "MENTIONS")
    assert mention["count"] >= 1
    entity = next(n for n in exported["nodes"] if n["label"] == "Entity")
    assert {"name", "type", "pagerank", "aliases"} <= entity.keys()
