"""The read-model port: what retrieval and the agents ask of the graph.

``GraphStore`` (port.py) is the write side and the plain reads of one database. This port is
the graph work a question needs: candidate chunks (vector and full-text), the inputs of entity
linking, personalized PageRank from weighted seeds, authority (and its refresh after writes)
and relation paths of up to ``MAX_HOPS`` hops. Two implementations:

- in memory (``retrieval.read_model.InMemoryReadModel``), over a projection of the whole graph
  held per graph version: the embedded default, and the fallback where Neo4j has no GDS;
- in Neo4j (``graph_store.neo4j.read_model.Neo4jReadModel``): native vector and full-text
  indexes, personalized PageRank over the seeds' neighbourhood fetched per question, GDS
  PageRank written as authority, one bounded query for paths. The process holds no copy of
  the graph. By default it is wrapped in ``retrieval.topology_model.TopologyReadModel``,
  which runs the walk and the paths in the process over the graph's topology alone.

Everything is addressed by the graph's own ids. Implementations do no I/O in constructors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol, runtime_checkable


@dataclass(frozen=True)
class ScoredChunk:
    chunk_id: str
    doc_id: str
    score: float


@dataclass(frozen=True)
class AliasMatch:
    """A span of the question that names an entity through one of its aliases or its name.
    ``start``/``end`` are word positions in the question (spans that overlap name one thing)."""

    span: str
    start: int
    end: int
    entity_id: str
    name: str
    confidence: float
    chunk_degree: int  # how many chunks mention the entity (its specificity)


@dataclass(frozen=True)
class EntityMatch:
    entity_id: str
    name: str
    score: float
    chunk_degree: int
    matched: str = ""


class PathHop(NamedTuple):
    """How an entity was reached from the sources: the previous entity on its cheapest path
    (None for a source), the relation between them, and whether it was walked in its stored
    direction. ``strength`` is the source's weight times the relations' weights, decayed per
    hop after the first and for each edge walked backwards; ``cost`` orders the paths. A
    named tuple: a reach holds one per entity within three hops (tens of thousands on a large
    graph), and a frozen dataclass took three times as long to make."""

    entity_id: str
    name: str
    hops: int
    via: str | None
    relation: str
    forward: bool
    strength: float
    cost: float


class ReachKeep(NamedTuple):
    """What a caller of ``relation_paths`` reads of the reach: the entities reached over at
    least one relation with at least ``min_strength`` (None: no entity for its strength) and
    the ``targets``; each comes with the entities on its path, and the sources always come.
    A store can then keep the rest of a three-hop reach (thousands of entities from a
    well-connected name) where it computed it."""

    min_strength: float | None
    targets: frozenset[str]


def kept_paths(reach: Mapping[str, PathHop], keep: ReachKeep | None) -> dict[str, PathHop]:
    """The part of a whole reach that ``keep`` asks for (all of it when None), each entry
    with the entries on its path: what every implementation returns for ``keep``."""
    if keep is None:
        return dict(reach)
    out: dict[str, PathHop] = {}
    for entity_id, hop in reach.items():
        least = keep.min_strength
        strong = least is not None and hop.hops > 0 and hop.strength >= least
        if hop.hops == 0 or strong or entity_id in keep.targets:
            node: PathHop | None = hop
            while node is not None and node.entity_id not in out:
                out[node.entity_id] = node
                node = reach.get(node.via) if node.via is not None else None
    return out


@dataclass(frozen=True)
class ChunkDetail:
    """A chunk with its document's metadata; ``similarity`` is the cosine with the asked
    vector (0 when none was given), ``authority`` its document's authority relative to the
    most central document of the graph, in [0, 1]."""

    chunk_id: str
    doc_id: str
    doc_title: str
    text: str
    index: int
    tokens: int
    similarity: float
    authority: float
    source: str
    doc_type: str
    date: str


class Candidates(NamedTuple):
    """A candidate read's hits, best first, with their details (``ChunkDetail.similarity``
    the cosine with the question's vector)."""

    hits: list[ScoredChunk]
    details: dict[str, ChunkDetail]


@runtime_checkable
class GraphReadModel(Protocol):
    def version(self) -> str:
        """The graph version the model answers from (changes with every committed write)."""

    def prepare(self) -> None:
        """Do now the work of this graph version that questions would otherwise wait for or
        go without (the in-memory index, the in-process topology); blocks until done."""

    # --- candidates -------------------------------------------------------------
    def dense_chunks(self, vector: Sequence[float], k: int) -> list[ScoredChunk]:
        """The ``k`` chunks closest to ``vector`` by cosine, best first."""

    def lexical_chunks(self, question: str, k: int) -> list[ScoredChunk]:
        """The ``k`` best chunks by BM25 over the question's words, best first."""

    def dense_candidates(self, vector: Sequence[float], k: int) -> Candidates:
        """``dense_chunks(vector, k)`` with ``chunk_details(their ids, vector)``: one read
        where the store can (a round trip saved on a search's critical path)."""

    def lexical_candidates(self, question: str, vector: Sequence[float], k: int) -> Candidates:
        """``lexical_chunks(question, k)`` with ``chunk_details(their ids, vector)``."""

    # --- entity linking inputs ------------------------------------------------------
    def alias_matches(self, question: str) -> list[AliasMatch]:
        """Longest non-overlapping spans of the question that are an alias or entity name;
        one row per (span, entity) pair."""

    def nearest_entities(
        self, vector: Sequence[float], k: int, min_score: float | None = None
    ) -> list[EntityMatch]:
        """The ``k`` entities whose name embedding is closest to ``vector``, best first; with
        ``min_score``, only those whose cosine is at least that (fewer than ``k`` then)."""

    def fulltext_entities(self, question: str, k: int) -> list[EntityMatch]:
        """Entities whose aliases match the question's words in the full-text index."""

    def entity_names(self, entity_ids: Sequence[str]) -> dict[str, str]: ...

    # --- walks and authority --------------------------------------------------------
    def personalized_pagerank(
        self, seeds: Mapping[str, float], k: int, damping: float = 0.85
    ) -> dict[str, float]:
        """The ``k`` chunks and entities a walk restarting at ``seeds`` (chunk or entity ids,
        weighted) visits most, with scores that sum to 1 over the whole graph (up to the mass
        an implementation that walks only the seeds' neighbourhood loses at its border)."""

    def refresh_authority(self) -> bool:
        """Recompute global PageRank (``Entity.pagerank``, ``Document.authority``) when the
        graph changed since the last refresh; True when it did."""

    def authority_percentiles(self, entity_ids: Sequence[str]) -> dict[str, float]:
        """Each entity's stored authority as a rank share in [0, 1] (1.0 is the highest)."""

    # --- paths ----------------------------------------------------------------------
    def relation_paths(
        self,
        sources: Mapping[str, float],
        max_hops: int,
        hop_decay: float = 0.8,
        backward: float = 0.5,
        keep: ReachKeep | None = None,
    ) -> dict[str, PathHop]:
        """Cheapest relation paths of at most ``max_hops`` edges from the weighted sources to
        every entity they reach (the sources included, at 0 hops), or the part ``keep`` asks
        for (``kept_paths``). Equal costs go to the stronger path, then the lower ``via`` id,
        relation type, and the edge walked forward."""

    def chunk_entities(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        """The entities each chunk mentions, with the mention count."""

    def entity_chunks(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        """The chunks that mention each entity."""

    def entity_similarities(
        self, entity_ids: Sequence[str], vector: Sequence[float]
    ) -> dict[str, float]:
        """Each entity's name-embedding cosine with ``vector`` (one number an entity, not its
        384: the agent weighs every entity a question reaches)."""

    def chunk_details(
        self, chunk_ids: Sequence[str], vector: Sequence[float] | None = None
    ) -> dict[str, ChunkDetail]: ...

    def chunk_vectors(self, chunk_ids: Sequence[str]) -> dict[str, list[float]]:
        """Each chunk's stored embedding (of its document's title and its text, as ingested),
        for comparing chunks with one another without embedding them again."""

    def chunk_entity_similarities(
        self, chunk_ids: Sequence[str], entity_ids: Sequence[str]
    ) -> dict[str, list[float]]:
        """Each chunk's cosine with each entity's name embedding, in ``entity_ids``' order (0
        for an entity without one): the graph preset's bridges, compared in the store, where
        sending the names' vectors out and back was a round trip of its own on Neo4j."""

    def subject_chunks(
        self, entity_ids: Sequence[str], titled: bool = False
    ) -> dict[str, list[str]]:
        """For each entity, the chunks of the documents it is the subject of (the entity
        the title names); ``titled``: also those of the documents whose titles name an
        organisation that has no such document (``retrieval.graph_index._subject_docs``)."""
