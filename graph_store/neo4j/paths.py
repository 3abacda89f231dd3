"""Hop-bounded cheapest relation paths over edges fetched in one query (read_model.py).

The same rounds as the in-memory search (retrieval/expansion.py): each round relaxes every
edge at the frontier (the entities improved in the round before), an edge costing
``2 - weight`` with the weight clipped to [0, 1]; strength is the source's weight (relative
to the heaviest source) times the weights, decayed per hop after the first and for each edge
walked against its stored direction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graph_store.read_model import PathHop


def cheapest_paths(
    rows: Sequence[Sequence[Any]],
    sources: Mapping[str, float],
    max_hops: int,
    hop_decay: float,
    backward: float,
) -> dict[str, PathHop]:
    """``rows``: (a id, a name, b id, b name, relation, weight, forward from a); b is None
    for an entity with no relation."""
    names: dict[str, str] = {}
    edges: dict[str, list[tuple[str, str, float, bool]]] = {}
    for a, a_name, b, b_name, rel, w, forward in rows:
        names[str(a)] = str(a_name or "")
        if b is None:
            continue
        names[str(b)] = str(b_name or "")
        edges.setdefault(str(a), []).append(
            (str(b), str(rel or ""), float(w or 0.0), bool(forward))
        )
    top = max(sources.values(), default=0.0) or 1.0
    best: dict[str, PathHop] = {
        e: PathHop(e, names[e], 0, None, "", True, w / top, 0.0)
        for e, w in sources.items()
        if e in names
    }
    frontier = sorted(best)
    for _ in range(max_hops):
        offers: dict[str, PathHop] = {}
        for a in frontier:
            here = best[a]
            for b, rel, w, forward in edges.get(a, []):
                unit = min(1.0, max(0.0, w))
                cost = here.cost + 2.0 - unit
                old = offers.get(b)
                if old is not None and old.cost <= cost:
                    continue
                strength = here.strength * unit * (hop_decay if here.hops > 0 else 1.0)
                strength *= 1.0 if forward else backward
                offers[b] = PathHop(b, names[b], here.hops + 1, a, rel, forward, strength, cost)
        improved = {b: h for b, h in offers.items() if b not in best or h.cost < best[b].cost}
        best.update(improved)
        frontier = sorted(improved)
        if not frontier:
            break
    return best
