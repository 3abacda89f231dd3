"""The ``GraphStore`` port and its adapters. Adapters are imported by the composition root."""

from graph_store.port import MAX_HOPS, GraphStore
from graph_store.types import (
    ChunkHit,
    Counts,
    DocumentInfo,
    DocumentState,
    EntityHit,
    GraphEdge,
    GraphExport,
    GraphNode,
    ProjectionData,
    Subgraph,
)

__all__ = [
    "MAX_HOPS",
    "ChunkHit",
    "Counts",
    "DocumentInfo",
    "DocumentState",
    "EntityHit",
    "GraphEdge",
    "GraphExport",
    "GraphNode",
    "GraphStore",
    "ProjectionData",
    "Subgraph",
]
