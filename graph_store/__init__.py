"""The ``GraphStore`` port and its adapters. Adapters are imported by the composition root."""

from graph_store.explore_port import ChatModel, GraphExplorer, NativeText2Cypher
from graph_store.explore_types import (
    CypherAnswer,
    EdgeInfo,
    EntityDetails,
    GraphPath,
    SchemaDescription,
)
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
    "ChatModel",
    "ChunkHit",
    "Counts",
    "CypherAnswer",
    "DocumentInfo",
    "DocumentState",
    "EdgeInfo",
    "EntityDetails",
    "EntityHit",
    "GraphEdge",
    "GraphExplorer",
    "GraphExport",
    "GraphNode",
    "GraphPath",
    "GraphStore",
    "NativeText2Cypher",
    "ProjectionData",
    "SchemaDescription",
    "Subgraph",
]
