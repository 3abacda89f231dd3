"""Serialise the exported graph as JSON or GraphML.

With ``GraphDetails`` (stores with the explore queries) the export carries what a graph tool
colours, sizes and explains by: Document nodes (title, date, type, URI, source) joined to their
chunks, chunk texts, entity types, PageRank, mentions and aliases, and each relation's
evidence chunk ids and extractor.

GraphML attribute names follow the tools that read them: Gephi takes a node's ``label`` as
its caption (so ``label`` is the display name and ``kind`` says Entity, Chunk or Document), and
APOC's ``apoc.import.graphml`` takes ``labels`` (``:Entity``) as the Neo4j label.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import quoteattr

from graph_store import GraphExport
from graph_store.explore_types import GraphDetails

LIST_SEPARATOR = "; "  # GraphML values are scalars: aliases and evidence ids joined by it

# (key id, for, attr.name, attr.type): every attribute an exported node or edge may carry.
_KEYS = (
    ("kind", "node", "kind", "string"),
    ("labels", "node", "labels", "string"),
    ("label", "node", "label", "string"),
    ("name", "node", "name", "string"),
    ("entity_type", "node", "type", "string"),
    ("pagerank", "node", "pagerank", "double"),
    ("mentions", "node", "mentions", "int"),
    ("aliases", "node", "aliases", "string"),
    ("title", "node", "title", "string"),
    ("date", "node", "date", "string"),
    ("doc_type", "node", "doc_type", "string"),
    ("uri", "node", "uri", "string"),
    ("source", "node", "source", "string"),
    ("document", "node", "document", "string"),
    ("index", "node", "index", "int"),
    ("text", "node", "text", "string"),
    ("type", "edge", "type", "string"),
    ("weight", "edge", "weight", "double"),
    ("evidence", "edge", "evidence", "string"),
    ("extractor", "edge", "extractor", "string"),
)


@dataclass
class _Element:
    data: dict[str, Any]  # GraphML key id -> value
    id: str = ""
    source: str = ""
    target: str = ""


def to_json(g: GraphExport, details: GraphDetails | None = None) -> str:
    """Nodes keep ``label`` as their kind (Chunk, Entity, Document) and edges their own
    fields (a mention's ``count``); details add the same attributes as the GraphML."""
    nodes = [{"id": n.id, **_json_node(n.data)} for n in _nodes(g, details)]
    edges = []
    for e in _edges(g, details):
        fields = dict(e.data)
        if fields["type"] == "MENTIONS":
            fields["count"] = int(fields.pop("weight"))
        elif fields["type"] == "NEXT":
            fields.pop("weight")
        if "evidence" in fields:
            fields["evidence"] = [c for c in fields["evidence"].split(LIST_SEPARATOR) if c]
        edges.append({"source": e.source, "target": e.target, **fields})
    return json.dumps({"nodes": nodes, "edges": edges}, ensure_ascii=False, indent=1) + "\n"


def to_graphml(g: GraphExport, details: GraphDetails | None = None) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    ]
    lines += [
        f'<key id="{k}" for="{f}" attr.name="{name}" attr.type="{t}"/>' for k, f, name, t in _KEYS
    ]
    lines.append('<graph id="kg" edgedefault="directed">')
    for n in _nodes(g, details):
        lines.append(f"<node id={quoteattr(n.id)}>{_data(n.data)}</node>")
    for e in _edges(g, details):
        lines.append(
            f"<edge source={quoteattr(e.source)} target={quoteattr(e.target)}>"
            f"{_data(e.data)}</edge>"
        )
    lines += ["</graph>", "</graphml>", ""]
    return "\n".join(lines)


def _nodes(g: GraphExport, details: GraphDetails | None) -> Iterator[_Element]:
    docs = {d.id: d for d in details.documents} if details else {}
    chunks = {c.id: c for c in details.chunks} if details else {}
    entities = {e.id: e for e in details.entities} if details else {}
    for d in docs.values():
        yield _Element(
            {
                "kind": "Document",
                "labels": ":Document",
                "label": d.title,
                "title": d.title,
                "date": d.date,
                "doc_type": d.doc_type,
                "uri": d.uri,
                "source": d.source,
            },
            id=d.id,
        )
    for cid, doc_id in zip(g.chunk_ids, g.chunk_docs, strict=True):
        c = chunks.get(cid)
        title = docs[doc_id].title if doc_id in docs else doc_id
        data: dict[str, Any] = {"kind": "Chunk", "labels": ":Chunk", "document": doc_id}
        if c is not None:
            data |= {"label": f"{title} #{c.index}", "index": c.index, "text": c.text}
        else:
            data["label"] = doc_id
        yield _Element(data, id=cid)
    for eid, name in zip(g.entity_ids, g.entity_names, strict=True):
        data = {"kind": "Entity", "labels": ":Entity", "label": name, "name": name}
        e = entities.get(eid)
        if e is not None:
            data |= {
                "entity_type": e.type,
                "pagerank": e.pagerank,
                "mentions": e.mentions,
                "aliases": LIST_SEPARATOR.join(e.aliases),
            }
        yield _Element(data, id=eid)


def _edges(g: GraphExport, details: GraphDetails | None) -> Iterator[_Element]:
    if details:
        for chunk in details.chunks:
            yield _Element({"type": "HAS_CHUNK"}, source=chunk.doc_id, target=chunk.id)
    for c, e, n in g.mentions:
        yield _Element({"type": "MENTIONS", "weight": float(n)}, source=c, target=e)
    meta = {(r.source, r.target, r.type): r for r in details.relations} if details else {}
    for a, b, t, w in g.relations:
        data: dict[str, Any] = {"type": t, "weight": w}
        r = meta.get((a, b, t))
        if r is not None:
            data |= {"evidence": LIST_SEPARATOR.join(r.evidence), "extractor": r.extractor}
        yield _Element(data, source=a, target=b)
    for a, b in g.next_edges:
        yield _Element({"type": "NEXT", "weight": 1.0}, source=a, target=b)


def _data(values: dict[str, Any]) -> str:
    return "".join(f'<data key="{k}">{_esc(str(v))}</data>' for k, v in values.items())


def _json_node(data: dict[str, Any]) -> dict[str, Any]:
    out = {("type" if k == "entity_type" else k): v for k, v in data.items()}
    out.pop("labels")
    out["label"] = out.pop("kind")  # the caption GraphML gives Gephi is ``name``/``title`` here
    if out["label"] == "Entity":
        out["aliases"] = [a for a in out.get("aliases", "").split(LIST_SEPARATOR) if a]
    return out


def _esc(text: str) -> str:
    return quoteattr(text)[1:-1]
