"""Plain result types returned by every ``GraphStore`` adapter."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from graph_schema import NumericFact


@dataclass(frozen=True)
class FactHit:
    """A stored numeric fact with the title of the document that states it."""

    fact: NumericFact
    doc_title: str


@dataclass(frozen=True)
class Counts:
    documents: int
    chunks: int
    entities: int
    relations: int
    aliases: int
    mentions: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "documents": self.documents,
            "chunks": self.chunks,
            "entities": self.entities,
            "relations": self.relations,
            "aliases": self.aliases,
            "mentions": self.mentions,
        }


@dataclass(frozen=True)
class DocumentState:
    id: str
    content_hash: str
    extractor_version: str


@dataclass(frozen=True)
class DocumentInfo:
    id: str
    uri: str
    title: str
    content_hash: str
    extractor_version: str
    ingested_at: str
    source: str
    doc_type: str
    date: str
    chunks: int


@dataclass(frozen=True)
class ChunkHit:
    chunk_id: str
    doc_id: str
    doc_title: str
    text: str
    score: float
    index: int = 0


@dataclass(frozen=True)
class EntityHit:
    entity_id: str
    name: str
    type: str
    score: float
    matched: str = ""


@dataclass(frozen=True)
class GraphNode:
    id: str
    label: str
    name: str
    type: str = ""
    hops: int = 0


@dataclass(frozen=True)
class GraphEdge:
    source: str
    target: str
    type: str
    weight: float = 1.0
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Subgraph:
    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)


@dataclass(frozen=True)
class GraphExport:
    """The chunk–entity graph as edge lists, for PageRank/PPR projections and exports."""

    chunk_ids: list[str]
    chunk_docs: list[str]
    entity_ids: list[str]
    entity_names: list[str]
    mentions: list[tuple[str, str, int]]  # (chunk id, entity id, count)
    relations: list[tuple[str, str, str, float]]  # (source, target, type, weight)
    next_edges: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class ProjectionData:
    """Everything retrieval projects into memory: the chunk–entity graph with the metadata
    that filters and explains results. Read once per graph version."""

    version: str
    doc_ids: list[str]
    doc_titles: list[str]
    doc_meta: list[tuple[str, str, str]]  # (source, doc_type, date) per document
    doc_authority: list[float]
    chunk_ids: list[str]
    chunk_docs: list[str]  # document id per chunk
    chunk_index: list[int]
    chunk_tokens: list[int]
    # One row per chunk / entity: a float32 matrix from a columnar read, else lists.
    chunk_embeddings: np.ndarray | list[list[float]]
    entity_ids: list[str]
    entity_names: list[str]
    entity_types: list[str]
    entity_pagerank: list[float]
    mentions: list[tuple[str, str, int]]  # (chunk id, entity id, count)
    relations: list[tuple[str, str, str, float]]  # (source, target, type, weight)
    aliases: list[tuple[str, str, float]]  # (alias surface name, entity id, confidence)
    entity_embeddings: np.ndarray | list[list[float]] = field(default_factory=list)
    # Chunk texts for retrieval's in-memory BM25 (retrieval/lexical.py), in chunk order.
    chunk_texts: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TopologyData:
    """The graph's shape alone, for a walk and a path search run in a process whose store
    keeps the rest (texts, names, vectors). ``ids`` holds every chunk and entity id in
    sorted order (as UTF-8 bytes, which sort as the strings do); a node's position is its place
    there, and the edges are position arrays."""

    version: str
    ids: np.ndarray  # (nodes,) sorted, numpy bytes
    entity: np.ndarray  # (len(ids),) bool: the node is an entity (else a chunk)
    mentions: np.ndarray  # (m, 2) int32: chunk, entity
    mention_counts: np.ndarray  # (m,) float32: times the chunk mentions the entity (>= 1)
    mention_subject: np.ndarray  # (m,) bool: the entity is the subject of the chunk's document
    next_pairs: np.ndarray  # (n, 2) int32: a chunk and the one after it in its document
    relations: np.ndarray  # (r, 2) int32: source, target entity
    relation_types: np.ndarray  # (r,) int32: index into ``type_names``
    relation_weights: np.ndarray  # (r,) float64
    type_names: list[str]
    # Entity names, UTF-8, one after another in ``ids`` order (a chunk's is empty): node i's
    # is ``name_bytes[name_offsets[i]:name_offsets[i + 1]]``. One blob, not a str a node.
    name_bytes: bytes = b""
    name_offsets: np.ndarray | None = None  # (len(ids) + 1,) int64; None: no names read
