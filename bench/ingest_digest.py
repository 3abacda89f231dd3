"""A digest of everything an ingest writes, to prove a speed change left the graph alone.

``GraphRecorder`` sits in front of a store's ``upsert_documents`` and hashes every
``DocumentGraph`` handed to it: the document (all fields but its ingest time), chunks, entities,
aliases, relations, mentions, SAME_AS edges and numeric facts, in the order written, and,
separately, the exact float32 bytes of every chunk and entity embedding. Two ingests of the same
input with the same digests wrote the same graph, vector for vector. The store's own digest
(bench/reliability/digest.py) covers what the store made of it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from graph_schema import DocumentGraph


class _Upserts(Protocol):
    def upsert_documents(self, graphs: Sequence[DocumentGraph]) -> None: ...


@dataclass
class GraphRecorder:
    """Records what passes through ``upsert_documents`` of the store it is attached to."""

    _graphs: dict[str, str] = field(default_factory=dict)  # doc id -> hash without vectors
    _vectors: dict[str, bytes] = field(default_factory=dict)  # chunk / entity id -> float32
    documents: int = 0

    def attach(self, store: _Upserts) -> None:
        """Wrap ``store.upsert_documents`` on this instance (a benchmark hook, not a port)."""
        inner = store.upsert_documents

        def upsert_documents(graphs: Sequence[DocumentGraph]) -> None:
            self.record(graphs)
            inner(graphs)

        store.upsert_documents = upsert_documents  # type: ignore[method-assign]

    def record(self, graphs: Sequence[DocumentGraph]) -> None:
        for graph in graphs:
            self.documents += 1
            self._graphs[graph.document.id] = _hash(_without_vectors(graph))
            for chunk in graph.chunks:
                self._vectors[f"chunk:{chunk.id}"] = _f32(chunk.embedding)
            for entity in graph.entities:
                self._vectors[f"entity:{entity.id}"] = _f32(entity.embedding)

    def digest(self) -> dict[str, Any]:
        graphs = hashlib.sha256()
        for doc_id in sorted(self._graphs):
            graphs.update(f"{doc_id}\x1f{self._graphs[doc_id]}\x1e".encode())
        vectors = hashlib.sha256()
        for key in sorted(self._vectors):
            vectors.update(key.encode() + b"\x1f" + self._vectors[key] + b"\x1e")
        return {
            "documents": self.documents,
            "graph_sha256": graphs.hexdigest()[:16],
            "vectors": len(self._vectors),
            "vectors_sha256": vectors.hexdigest()[:16],
        }


def _without_vectors(graph: DocumentGraph) -> dict[str, Any]:
    data = graph.model_dump(mode="json", exclude={"document": {"ingested_at"}})
    for part in ("chunks", "entities"):
        for row in data[part]:
            row.pop("embedding", None)
    return data


def _hash(data: dict[str, Any]) -> str:
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def _f32(vector: Sequence[float]) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()
