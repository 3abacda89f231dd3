"""Graph Data Science on the Neo4j adapter: global PageRank, written as authority.

GDS works on in-memory projections. A projection is named after the graph version counter the
adapter bumps in ``(:Meta {key: 'graph_version'})`` on every write, so one built from an older
graph is never reused: it is dropped the next time a projection is needed or a write happens.
Every GDS call is routed to the writer, because projections live in the memory of one server
and a read could be routed to another member of a cluster.

When GDS is absent (Neo4j Aura Free, a plain community server) ``available()`` says so once
in the log and the composition root gives retrieval the in-memory read model instead
(``retrieval.read_model``), over the graph read by the ``proj_*`` and ``export_*`` queries.
GDS walks the same graph as that projection (chunks and entities; mentions, relations and
chunk order, undirected, with the projection's weights), so both give the same scores within
the tolerance of their iterations.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from core.errors import StoreError

log = logging.getLogger(__name__)

QueryFn = Callable[..., list[list[Any]]]

_PREFIX = "kg-"
# As many iterations as the in-memory projection allows itself, so that both converge alike.
ITERATIONS = 100
_WALK = "walk"
# Chunk-to-chunk weight of NEXT edges in the walk graph; the in-memory projection's
# ``retrieval.projection.NEXT_WEIGHT`` (a test keeps the two equal).
NEXT_WEIGHT = 0.5
# How much more a mention of a document's own subject weighs (``retrieval.projection.
# SUBJECT_WEIGHT``; the same test keeps them equal).
SUBJECT_WEIGHT = 3.0


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
        return self._projection(
            _WALK, "gds_project_ppr", next_weight=NEXT_WEIGHT, subject_weight=SUBJECT_WEIGHT
        )

    # --- algorithms -------------------------------------------------------------
    def write_pagerank(self, damping: float = 0.85, max_iterations: int = ITERATIONS) -> int:
        """Global PageRank over the walk graph written to ``pagerank`` on every chunk and
        entity (scaled to sum to 1, as the in-memory projection's), documents linked to their
        subjects (``ABOUT``) and given their authority; returns the nodes written."""
        self._require()
        # Subjects first: the walk graph weighs their mentions, so this version's catalog
        # graph, if one was projected before the links changed, is projected again.
        self._run("subjects_link")
        for (stale,) in self._run("gds_graph_names", prefix=f"{_PREFIX}{_WALK}-v"):
            self._run("gds_graph_drop", graph_name=stale)
        name = self._walk_graph()
        if name is None:
            return 0
        rows = self._run(
            "gds_pagerank_write",
            graph_name=name,
            damping=float(damping),
            max_iterations=int(max_iterations),
        )
        written = int(rows[0][0]) if rows else 0
        self._run("authority_write")
        return written

    def _require(self) -> None:
        if not self.available():
            raise StoreError(
                "the Neo4j server has no Graph Data Science plugin: use the in-memory read "
                "model (retrieval.read_model), which the composition root picks then"
            )


def _is_client_error(exc: StoreError) -> bool:
    """A refusal by the server (unknown function, bad syntax), not a failed connection."""
    from neo4j.exceptions import ClientError

    return isinstance(exc.__cause__, ClientError)
