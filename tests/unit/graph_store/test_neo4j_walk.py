"""The Neo4j read model's walk over a fetched neighbourhood (walk.py), against the in-memory
projection on the same small graph: pure computation. (Its path rounds run in the database:
the read-model contract tests them on every store.)"""

from __future__ import annotations

import numpy as np
import pytest

from graph_store.neo4j.walk import Neighbourhood, frontier, personalized, top

# An undirected weighted graph: a star around "hub" plus a path x - y - z.
EDGES = {("s", "hub"): 1.0, ("hub", "p"): 1.0, ("hub", "q"): 1.0, ("s", "x"): 2.0,
         ("x", "y"): 1.0, ("y", "z"): 1.0}  # fmt: skip


def adjacency() -> dict[str, dict[str, float]]:
    adj: dict[str, dict[str, float]] = {}
    for (a, b), w in EDGES.items():
        adj.setdefault(a, {})[b] = w
        adj.setdefault(b, {})[a] = w
    return adj


def rows(nodes: list[str], hubs: frozenset[str] = frozenset()) -> list[list[object]]:
    """``read_walk_neighbourhood`` rows for ``nodes``; a hub comes without its edges."""
    adj = adjacency()
    out: list[list[object]] = []
    for n in nodes:
        far = [] if n in hubs else sorted(adj[n])
        out.append([n, sum(adj[n].values()), far, [adj[n][f] for f in far]])
    return out


def exact(seeds: dict[str, float], damping: float) -> dict[str, float]:
    adj = adjacency()
    ids = sorted(adj)
    pos = {n: i for i, n in enumerate(ids)}
    walk = np.zeros((len(ids), len(ids)))
    for a, nbrs in adj.items():
        deg = sum(nbrs.values())
        for b, w in nbrs.items():
            walk[pos[b], pos[a]] = w / deg
    reset = np.zeros(len(ids))
    for n, w in seeds.items():
        reset[pos[n]] = w
    reset /= reset.sum()
    r = reset.copy()
    for _ in range(500):
        r = damping * walk @ r + (1 - damping) * reset
    return {n: float(r[pos[n]]) for n in ids}


def test_the_whole_graph_fetched_gives_the_exact_walk() -> None:
    hood = Neighbourhood()
    hood.add(rows(sorted(adjacency())))
    got = personalized(hood, {"s": 0.7, "z": 0.3}, 0.85)
    assert got == pytest.approx(exact({"s": 0.7, "z": 0.3}, 0.85), abs=1e-5)
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-5)


def test_a_hub_without_its_edges_still_walks_back_to_fetched_nodes() -> None:
    hood = Neighbourhood()
    hood.add(rows(["s", "hub", "x"], hubs=frozenset({"hub"})))
    got = personalized(hood, {"s": 1.0}, 0.5)
    want = exact({"s": 1.0}, 0.5)
    # Mass that leaves the fetched part is lost, never invented: scores stay below the exact.
    assert all(got[n] <= want[n] + 1e-9 for n in got)
    assert "p" not in got and got["hub"] > 0  # the hub's edges stayed in the database
    assert max(got, key=got.__getitem__) == "s"
    # The unfetched node holding the most mass is asked for next; none below the threshold.
    assert frontier(hood, got, 1e-3, 10) == ["y"]
    assert frontier(hood, got, 1.0, 10) == []
    assert list(top(got, 2)) == sorted(got, key=lambda n: -got[n])[:2]
