"""Graph Data Science on the Neo4j adapter: global PageRank and personalized PageRank.

GDS works on in-memory projections. A projection is named after the graph version counter the
adapter bumps in ``(:Meta {key: 'graph_version'})`` on every write, so one built from an older
graph is never reused: it is dropped the next time a projection is needed or a write happens.
Every GDS call is routed to the writer, because projections live in the memory of one server
and a read could be routed to another member of a cluster.

When GDS is absent (Neo4j Aura Free, a plain community server) ``available()`` says so once
in the log and ``Neo4jRanker`` computes the same walks with the in-memory projection
(``retrieval.projection``) over the graph read by the ``proj_*`` and ``export_*`` queries.
GDS walks the same graph as that projection (chunks and entities; mentions, relations and
chunk order, undirected, with the projection's weights), so both give the same scores within
the tolerance of their iterations.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from core.errors import StoreError
from graph_store.neo4j.rows import RankedNode, seed_rows
from graph_store.rows import read_projection
from graph_store.types import ProjectionData
from retrieval.projection import NEXT_WEIGHT, Projection, document_authority

log = logging.getLogger(__name__)

QueryFn = Callable[..., list[list[Any]]]

_PREFIX = "kg-"
# As many iterations as the in-memory projection allows itself, so that both converge alike.
_ITERATIONS = 100
_WALK = "walk"


class Neo4jGds:
    """GDS operations over named queries; ``run`` executes ``cypher/neo4j/<name>.cypher``."""

    def __init__(self, run: QueryFn) -> None:
        self._run = run
        self._available: bool | None = None
        self.version = ""

    def available(self) -> bool:
        """Whether the GDS plugin is installed; asked once per adapter."""
        if self._available is None:
            try:
                rows = self._run("gds_version")
            except StoreError as exc:
                if not _is_client_error(exc):
                    raise  # the server is unreachable: say so, do not conclude "no GDS"
                self._available = False
                log.warning(
                    "Neo4j has no Graph Data Science plugin (%s); PageRank and personalized "
                    "PageRank use the in-memory projection instead",
                    exc.__cause__ or exc,
                )
            else:
                self._available = True
                self.version = str(rows[0][0]) if rows else ""
                log.info("Neo4j Graph Data Science %s available", self.version)
        return self._available

    def known_available(self) -> bool:
        """True only when an earlier call found GDS; never queries."""
        return bool(self._available)

    # --- projections ----------------------------------------------------------
    def _graph_version(self) -> int:
        rows = self._run("meta_get", key="graph_version")
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    def drop_stale(self) -> None:
        """Drop every kg projection not built from the current graph version."""
        current = self._graph_version()
        keep = {f"{_PREFIX}{_WALK}-v{current}"}
        for (name,) in self._run("gds_graph_names", prefix=_PREFIX):
            if name not in keep:
                self._run("gds_graph_drop", graph_name=name)

    def _projection(self, kind: str, query: str, **params: Any) -> str | None:
        """The name of an up-to-date projection of ``kind``, building it when missing.

        None when the graph has no relationships to project."""
        _, _, _, relations, _, mentions = self._run("counts")[0]
        if not relations and not mentions:
            return None  # nothing to project; GDS refuses an empty Cypher projection
        prefix = f"{_PREFIX}{kind}-v"
        name = f"{prefix}{self._graph_version()}"
        present = {row[0] for row in self._run("gds_graph_names", prefix=prefix)}
        for stale in present - {name}:
            self._run("gds_graph_drop", graph_name=stale)
        if name in present:
            return name
        try:
            rows = self._run(query, graph_name=name, **params)
        except StoreError:
            # Another process may have projected the same version in the meantime.
            if name in {row[0] for row in self._run("gds_graph_names", prefix=prefix)}:
                return name
            raise
        return name if rows and rows[0][0] is not None else None

    def _walk_graph(self) -> str | None:
        return self._projection(_WALK, "gds_project_ppr", next_weight=NEXT_WEIGHT)

    # --- algorithms -------------------------------------------------------------
    def pagerank(
        self, damping: float = 0.85, max_iterations: int = 20
    ) -> tuple[dict[str, float], dict[str, float]]:
        """Global PageRank over the chunk–entity graph: (chunk scores, entity scores), scaled
        together to sum to 1 as the in-memory projection's are."""
        self._require()
        name = self._walk_graph()
        if name is None:
            return {}, {}
        rows = self._run(
            "gds_pagerank_stream",
            graph_name=name,
            damping=float(damping),
            max_iterations=int(max_iterations),
        )
        total = sum(float(r[2]) for r in rows)
        scale = 1.0 / total if total > 0 else 1.0
        chunks = {str(r[1]): float(r[2]) * scale for r in rows if r[0] == "Chunk"}
        entities = {str(r[1]): float(r[2]) * scale for r in rows if r[0] == "Entity"}
        return chunks, entities

    def personalized_pagerank(
        self,
        seeds: Mapping[str, float],
        k: int,
        damping: float = 0.85,
        max_iterations: int = 20,
    ) -> list[RankedNode]:
        """The ``k`` chunks and entities a walk restarting at ``seeds`` (chunk or entity ids,
        weighted) visits most, best first; scores scaled to sum to 1 over all nodes."""
        self._require()
        rows = seed_rows(seeds)
        if not rows or k <= 0:
            return []
        name = self._walk_graph()
        if name is None:
            return []
        result = self._run(
            "gds_ppr_stream",
            graph_name=name,
            seeds=rows,
            k=int(k),
            damping=float(damping),
            max_iterations=int(max_iterations),
        )
        total = float(result[0][3]) if result else 0.0
        scale = 1.0 / total if total > 0 else 1.0
        return [RankedNode(str(r[0]), str(r[1]), float(r[2]) * scale) for r in result]

    def _require(self) -> None:
        if not self.available():
            raise StoreError(
                "the Neo4j server has no Graph Data Science plugin: use Neo4jRanker, which "
                "falls back to the in-memory projection"
            )


def _is_client_error(exc: StoreError) -> bool:
    """A refusal by the server (unknown function, bad syntax), not a failed connection."""
    from neo4j.exceptions import ClientError

    return isinstance(exc.__cause__, ClientError)


class Neo4jRanker:
    """Global and personalized PageRank on Neo4j: with GDS when the server has it, otherwise
    with the in-memory projection, cached per graph version.

    ``write`` runs GDS queries (routed to the writer, where projections live); ``read`` runs
    the queries that read the graph for the in-memory projection."""

    def __init__(self, write: QueryFn, read: QueryFn) -> None:
        self._read = read
        self.gds = Neo4jGds(write)
        self._lock = threading.Lock()
        self._cached: tuple[Projection, ProjectionData] | None = None

    def graph_version(self) -> str:
        rows = self._read("meta_get", key="graph_version")
        return str(rows[0][0]) if rows and rows[0][0] is not None else ""

    def projection_data(self) -> ProjectionData:
        return read_projection(self.graph_version(), lambda name: self._read(name))

    def _projection(self) -> tuple[Projection, ProjectionData]:
        version = self.graph_version()
        with self._lock:
            if self._cached is None or self._cached[0].version != version:
                data = self.projection_data()
                self._cached = (Projection(data), data)
            return self._cached

    def authority(self) -> tuple[dict[str, float], dict[str, float]]:
        """(Entity PageRank, document authority), as ``Projection.authority`` defines them."""
        if not self.gds.available():
            projection, data = self._projection()
            return projection.authority(data)
        chunks, entities = self.gds.pagerank(max_iterations=_ITERATIONS)
        docs = self._read("proj_documents")
        return entities, document_authority(
            [(r[0], r[1] or "") for r in docs],
            {r[0]: r[1] for r in self._read("export_chunks")},
            chunks,
            {r[0]: r[1] or "" for r in self._read("export_entities")},
            entities,
        )

    def personalized(
        self, seeds: Mapping[str, float], k: int, damping: float = 0.85
    ) -> list[RankedNode]:
        if self.gds.available():
            return self.gds.personalized_pagerank(
                seeds, k, damping=damping, max_iterations=_ITERATIONS
            )
        weights = {r["id"]: float(r["weight"]) for r in seed_rows(seeds)}
        if k <= 0 or not weights:
            return []
        projection, _ = self._projection()
        known = projection.chunk_pos.keys() | projection.entity_pos.keys()
        if not known & weights.keys():
            return []  # as GDS: no seed in the graph, no walk
        scores = projection.personalized(weights, damping)
        top = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
        return [
            RankedNode(node, "Chunk" if node in projection.chunk_pos else "Entity", score)
            for node, score in top
        ]
