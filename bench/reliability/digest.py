"""A content digest of a graph: counts plus a hash of the sorted export and document list.

Two graphs with the same digest hold the same documents (ids and content hashes), chunks,
entities (ids and names), mentions, relations (with weights rounded, since PageRank-derived
floats may differ in the last bits between runs) and NEXT edges.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from graph_store.port import GraphStore

_PAGE = 500


@dataclass(frozen=True)
class GraphDigest:
    counts: dict[str, int]
    sha256: str

    def as_dict(self) -> dict[str, Any]:
        return {"counts": self.counts, "sha256": self.sha256}


def graph_digest(store: GraphStore) -> GraphDigest:
    counts = store.counts().as_dict()
    graph = store.export_graph()
    docs: list[tuple[str, str, str]] = []
    offset = 0
    while page := store.list_documents(offset, _PAGE):
        docs.extend((d.id, d.uri, d.content_hash) for d in page)
        offset += len(page)
    content = {
        "documents": sorted(docs),
        "chunks": sorted(zip(graph.chunk_ids, graph.chunk_docs, strict=True)),
        "entities": sorted(zip(graph.entity_ids, graph.entity_names, strict=True)),
        "mentions": sorted(graph.mentions),
        "relations": sorted((s, t, r, round(w, 6)) for s, t, r, w in graph.relations),
        "next": sorted(graph.next_edges),
    }
    blob = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    return GraphDigest(counts, hashlib.sha256(blob.encode()).hexdigest())
