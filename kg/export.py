"""Serialise the exported chunk–entity graph as JSON or GraphML."""

from __future__ import annotations

import json
from xml.sax.saxutils import quoteattr

from graph_store import GraphExport


def to_json(g: GraphExport) -> str:
    nodes = [
        {"id": c, "label": "Chunk", "document": d}
        for c, d in zip(g.chunk_ids, g.chunk_docs, strict=True)
    ]
    nodes += [
        {"id": e, "label": "Entity", "name": n}
        for e, n in zip(g.entity_ids, g.entity_names, strict=True)
    ]
    edges = [{"source": c, "target": e, "type": "MENTIONS", "count": n} for c, e, n in g.mentions]
    edges += [{"source": a, "target": b, "type": t, "weight": w} for a, b, t, w in g.relations]
    edges += [{"source": a, "target": b, "type": "NEXT"} for a, b in g.next_edges]
    return json.dumps({"nodes": nodes, "edges": edges}, ensure_ascii=False, indent=1) + "\n"


def to_graphml(g: GraphExport) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
        '<key id="label" for="node" attr.name="label" attr.type="string"/>',
        '<key id="name" for="node" attr.name="name" attr.type="string"/>',
        '<key id="type" for="edge" attr.name="type" attr.type="string"/>',
        '<key id="weight" for="edge" attr.name="weight" attr.type="double"/>',
        '<graph id="kg" edgedefault="directed">',
    ]
    for c, d in zip(g.chunk_ids, g.chunk_docs, strict=True):
        lines.append(
            f'<node id={quoteattr(c)}><data key="label">Chunk</data>'
            f'<data key="name">{_esc(d)}</data></node>'
        )
    for e, n in zip(g.entity_ids, g.entity_names, strict=True):
        lines.append(
            f'<node id={quoteattr(e)}><data key="label">Entity</data>'
            f'<data key="name">{_esc(n)}</data></node>'
        )
    edges = [(c, e, "MENTIONS", float(n)) for c, e, n in g.mentions]
    edges += list(g.relations) + [(a, b, "NEXT", 1.0) for a, b in g.next_edges]
    for a, b, t, w in edges:
        lines.append(
            f'<edge source={quoteattr(a)} target={quoteattr(b)}><data key="type">{_esc(t)}</data>'
            f'<data key="weight">{w}</data></edge>'
        )
    lines += ["</graph>", "</graphml>", ""]
    return "\n".join(lines)


def _esc(text: str) -> str:
    return quoteattr(text)[1:-1]
