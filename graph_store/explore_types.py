"""Result types of the explore capabilities (``GraphExplorer``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph_store.types import GraphEdge, GraphNode


@dataclass(frozen=True)
class DocumentRef:
    """A document that mentions an entity, with how often it does."""

    id: str
    title: str
    mentions: int


@dataclass(frozen=True)
class EntityDetails:
    id: str
    name: str
    type: str
    description: str
    pagerank: float
    mentions: int
    aliases: tuple[str, ...]
    documents: tuple[DocumentRef, ...]


@dataclass(frozen=True)
class EvidenceChunk:
    chunk_id: str
    doc_id: str
    doc_title: str
    text: str


@dataclass(frozen=True)
class EdgeInfo:
    """One stored ``RELATED`` relation with the chunks it was extracted from."""

    source: str
    target: str
    type: str
    weight: float
    extractor: str
    evidence: tuple[EvidenceChunk, ...]


@dataclass(frozen=True)
class GraphPath:
    """A path as alternating nodes and edges: ``edges[i]`` joins ``nodes[i]`` and
    ``nodes[i + 1]``; an edge keeps the direction it is stored with."""

    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]

    @property
    def hops(self) -> int:
        return len(self.edges)


@dataclass(frozen=True)
class PropertyInfo:
    name: str
    type: str


@dataclass(frozen=True)
class TableInfo:
    """A node label, or a relationship type with the labels it joins."""

    name: str
    properties: tuple[PropertyInfo, ...]
    source: str = ""
    target: str = ""


@dataclass(frozen=True)
class SchemaDescription:
    """What a query writer (an analyst, an LLM) needs to know about the stored graph."""

    dialect: str  # "kuzu" or "neo4j": the Cypher flavour the store runs
    nodes: tuple[TableInfo, ...]
    relationships: tuple[TableInfo, ...]
    relation_types: tuple[str, ...] = ()  # values of RELATED.type, the most frequent first
    entity_types: tuple[str, ...] = ()  # values of Entity.type, the most frequent first

    def as_text(self) -> str:
        def props(t: TableInfo) -> str:
            return ", ".join(f"{p.name}: {p.type}" for p in t.properties)

        lines = ["Node labels and their properties:"]
        lines += [f"- (:{t.name} {{{props(t)}}})" for t in self.nodes]
        lines.append("Relationship types, with the labels they join and their properties:")
        for t in self.relationships:
            body = f" {{{props(t)}}}" if t.properties else ""
            lines.append(f"- (:{t.source})-[:{t.name}{body}]->(:{t.target})")
        if self.relation_types:
            kinds = ", ".join(self.relation_types)
            lines.append(f"Values of RELATED.type (the kind of relation): {kinds}")
        if self.entity_types:
            lines.append(f"Values of Entity.type: {', '.join(self.entity_types)}")
        return "\n".join(lines)


@dataclass(frozen=True)
class CypherAnswer:
    """A natural-language question answered by one generated, read-only Cypher query."""

    question: str
    cypher: str
    rows: list[dict[str, Any]]
    dialect: str


@dataclass(frozen=True)
class EntityRank:
    """How central an entity is: what the explorer sizes its node by."""

    id: str
    pagerank: float
    mentions: int


@dataclass(frozen=True)
class DocumentMeta:
    id: str
    uri: str
    title: str
    date: str
    doc_type: str
    source: str


@dataclass(frozen=True)
class ChunkMeta:
    id: str
    doc_id: str
    index: int
    text: str


@dataclass(frozen=True)
class EntityMeta:
    id: str
    type: str
    pagerank: float
    mentions: int
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class RelationMeta:
    source: str
    target: str
    type: str
    extractor: str
    evidence: tuple[str, ...]  # chunk ids


@dataclass(frozen=True)
class GraphDetails:
    """What an export adds to the bare chunk–entity graph (``GraphExport``) so that a graph
    tool (Gephi, Neo4j Bloom) can colour, size and explain it: documents with their metadata,
    chunk texts, entity types, PageRank and aliases, relation evidence."""

    documents: tuple[DocumentMeta, ...]
    chunks: tuple[ChunkMeta, ...]
    entities: tuple[EntityMeta, ...]
    relations: tuple[RelationMeta, ...]
