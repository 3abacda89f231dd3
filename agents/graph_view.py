"""What the agent reads from the graph: mentions, relations, distances and authority.

Built from ``GraphStore.projection_data()`` once per graph version and shared by every run on
that store, so a question costs no extra graph round trips. Authority is the stored global
PageRank of entities (``Entity.pagerank``), or, when the store has none yet, PageRank computed
here over the typed, weighted RELATED edges (direction kept: being implemented, led or joined
is what makes a plan or a body central); it is used as a percentile so settings can speak of
"the top quarter". Evidence reached through the graph is as authoritative
as the most central entity it mentions, discounted by the strength of the path that reached it
(the product of relation weights: typed relations count fully, co-occurrence weakly). On the
demo graph the national plan is the 8th of 126 entities, reached from the trust over three
typed relations, while dates that co-occur with everything are reached only weakly.

The projection is read whole; fine up to about 10^5 edges, the scale of the demo and the
multi-hop benchmarks (the Neo4j production path would page it or ask per entity).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from graph_store import GraphStore

# Standard PageRank damping; the stored authority (Kùzu/Neo4j page_rank) uses the same.
DAMPING = 0.85
PAGERANK_ITERATIONS = 50


@dataclass(frozen=True)
class Hop:
    """How an entity was reached: its predecessor on a strongest path and the edge's type."""

    entity_id: str
    distance: int
    via: str | None
    relation: str
    strength: float  # product of relation weights along the path


@dataclass
class GraphView:
    entity_name: dict[str, str]
    chunk_doc: dict[str, str]
    chunk_entities: dict[str, dict[str, int]]
    entity_chunks: dict[str, set[str]]
    adjacency: dict[str, list[tuple[str, str, float]]]  # undirected view, typed and weighted
    entity_rank: dict[str, float]
    entity_percentile: dict[str, float]

    def reach(self, sources: dict[str, float], max_hops: int) -> dict[str, Hop]:
        """Strongest path (by relation weight product) to every entity within ``max_hops``,
        found level by level so distance stays the hop count."""
        best: dict[str, Hop] = {s: Hop(s, 0, None, "", 1.0) for s in sources}
        frontier = list(sources)
        for depth in range(1, max_hops + 1):
            found: dict[str, Hop] = {}
            for node in frontier:
                base = best[node].strength
                for nbr, rel, weight in self.adjacency.get(node, ()):
                    if nbr in best:
                        continue
                    hop = Hop(nbr, depth, node, rel, base * weight)
                    if nbr not in found or hop.strength > found[nbr].strength:
                        found[nbr] = hop
            best.update(found)
            frontier = list(found)
            if not frontier:
                break
        return best

    def path(self, reach: dict[str, Hop], entity_id: str) -> list[str]:
        """Names and relation types from a source to ``entity_id``: [a, REL, b, REL, c]."""
        out: list[str] = []
        node: str | None = entity_id
        while node is not None and node in reach:
            hop = reach[node]
            out.append(self.entity_name.get(node, node))
            if hop.via is not None:
                out.append(hop.relation)
            node = hop.via
        return list(reversed(out))

    def chunk_distance(self, chunk_id: str, reach: dict[str, Hop]) -> int | None:
        hops = [reach[e].distance for e in self.chunk_entities.get(chunk_id, {}) if e in reach]
        return min(hops) if hops else None

    def chunk_authority(self, chunk_id: str, reach: dict[str, Hop]) -> tuple[float, str | None]:
        """Best (entity percentile x path strength) over the reached entities the chunk
        mentions, with that entity's id; sources themselves (distance 0) do not count."""
        best, which = 0.0, None
        for entity in self.chunk_entities.get(chunk_id, {}):
            hop = reach.get(entity)
            if hop is None or hop.distance == 0:
                continue
            value = self.entity_percentile.get(entity, 0.0) * hop.strength
            if value > best:
                best, which = value, entity
        return best, which


def build_view(store: GraphStore) -> GraphView:
    data = store.projection_data()
    chunk_doc = dict(zip(data.chunk_ids, data.chunk_docs, strict=True))
    chunk_entities: dict[str, dict[str, int]] = defaultdict(dict)
    entity_chunks: dict[str, set[str]] = defaultdict(set)
    for chunk, entity, count in data.mentions:
        chunk_entities[chunk][entity] = count
        entity_chunks[entity].add(chunk)
    adjacency: dict[str, list[tuple[str, str, float]]] = defaultdict(list)
    for a, b, rel, weight in data.relations:
        adjacency[a].append((b, rel, weight))
        adjacency[b].append((a, rel, weight))
    stored = dict(zip(data.entity_ids, data.entity_pagerank, strict=True))
    # A graph whose authority was never refreshed has zeros; compute it here then.
    entity_rank = stored if any(stored.values()) else _pagerank(data.entity_ids, data.relations)
    return GraphView(
        entity_name=dict(zip(data.entity_ids, data.entity_names, strict=True)),
        chunk_doc=chunk_doc,
        chunk_entities=dict(chunk_entities),
        entity_chunks=dict(entity_chunks),
        adjacency=dict(adjacency),
        entity_rank=entity_rank,
        entity_percentile=_percentiles(entity_rank),
    )


def _pagerank(ids: list[str], relations: list[tuple[str, str, str, float]]) -> dict[str, float]:
    n = len(ids)
    if n == 0:
        return {}
    index = {e: i for i, e in enumerate(ids)}
    out_weight = np.zeros(n)
    edges = [(index[a], index[b], w) for a, b, _, w in relations if a in index and b in index]
    for i, _, w in edges:
        out_weight[i] += w
    rank = np.full(n, 1.0 / n)
    src = np.array([i for i, _, _ in edges], dtype=int)
    dst = np.array([j for _, j, _ in edges], dtype=int)
    wts = np.array([w for _, _, w in edges], dtype=float)
    share = wts / np.where(out_weight[src] > 0, out_weight[src], 1.0) if len(edges) else wts
    dangling = out_weight == 0
    for _ in range(PAGERANK_ITERATIONS):
        flow = np.zeros(n)
        if len(edges):
            np.add.at(flow, dst, rank[src] * share)
        rank = (1 - DAMPING) / n + DAMPING * (flow + rank[dangling].sum() / n)
    return {e: float(rank[i]) for e, i in index.items()}


def _percentiles(values: dict[str, float]) -> dict[str, float]:
    """Rank share in [0, 1]: 1.0 is the highest value, ties share their best rank."""
    if not values:
        return {}
    ordered = sorted(values.values())
    n = len(ordered)
    out: dict[str, float] = {}
    for key, value in values.items():
        below = int(np.searchsorted(ordered, value, side="left"))
        out[key] = below / (n - 1) if n > 1 else 1.0
    return out


class ViewCache:
    """One view per store, rebuilt when the store's graph version changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._views: dict[int, tuple[str, GraphView]] = {}

    def get(self, store: GraphStore) -> GraphView:
        version = store.graph_version()
        with self._lock:
            cached = self._views.get(id(store))
            if cached is not None and cached[0] == version and version:
                return cached[1]
        view = build_view(store)
        with self._lock:
            self._views[id(store)] = (version, view)
        return view


VIEWS = ViewCache()
