"""Multi-hop expansion over typed relations: the paths that explain why a passage was
reached from the question's entities, and the bridge entities on them.

Path search is a cheapest-path search from the linked entities, at most ``max_hops`` relation
edges. An edge costs more the weaker it is, so typed relations (weight 1) are preferred to
co-occurrence (low weight) and a path through a stated relation wins over a chance one.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from retrieval.graph_index import GraphIndex


@dataclass(frozen=True)
class PathStep:
    source: str
    relation: str
    target: str
    forward: bool


@dataclass
class Reach:
    cost: float
    hops: int
    parent: int | None
    step: tuple[str, float, bool] | None  # relation into this node
    strength: float = 1.0  # product of edge weights along the path, decayed per hop


@dataclass
class Expansion:
    reach: dict[int, Reach] = field(default_factory=dict)

    def path_to(self, ei: int, index: GraphIndex) -> list[PathStep]:
        steps: list[PathStep] = []
        node: int | None = ei
        while node is not None:
            r = self.reach[node]
            if r.parent is None or r.step is None:
                break
            rel, _w, forward = r.step
            src, dst = index.entity_names[r.parent], index.entity_names[node]
            steps.append(PathStep(src, rel, dst, forward))
            node = r.parent
        return steps[::-1]


def expand(
    seeds: dict[int, float],
    index: GraphIndex,
    max_hops: int,
    hop_decay: float = 0.8,
    backward: float = 0.5,
) -> Expansion:
    """Cheapest paths of at most ``max_hops`` relations from any seed entity. ``strength``
    of a reached entity is its seed's weight times the path's edge weights, times
    ``hop_decay`` per hop after the first and ``backward`` per edge walked against its
    direction. Stated relations point from the part to the whole (MEMBER_OF, PART_OF,
    IMPLEMENTS, LEADS): walking with them climbs to the context an entity sits in, walking
    against them goes down to its siblings' parts."""
    out = Expansion()
    heap: list[tuple[float, int, int]] = []
    top = max(seeds.values(), default=1.0) or 1.0
    for ei, w in seeds.items():
        out.reach[ei] = Reach(0.0, 0, None, None, w / top)
        heapq.heappush(heap, (0.0, 0, ei))
    while heap:
        cost, hops, ei = heapq.heappop(heap)
        if cost > out.reach[ei].cost or hops >= max_hops:
            continue
        for nb, rel, weight, forward in index.relations[ei]:
            step_cost = 1.0 + (1.0 - min(1.0, max(0.0, weight)))
            new = cost + step_cost
            known = out.reach.get(nb)
            if known is None or new < known.cost:
                strength = out.reach[ei].strength * max(0.0, min(1.0, weight))
                if hops > 0:
                    strength *= hop_decay
                if not forward:
                    strength *= backward
                out.reach[nb] = Reach(new, hops + 1, ei, (rel, weight, forward), strength)
                heapq.heappush(heap, (new, hops + 1, nb))
    return out


def expansion_scores(expansion: Expansion, index: GraphIndex) -> dict[int, float]:
    """Per chunk, the strongest path (≥ 1 hop) to an entity it mentions: how firmly the
    typed relations tie the passage to the question's entities."""
    reached = {ei: r.strength for ei, r in expansion.reach.items() if r.hops > 0}
    out: dict[int, float] = {}
    if not reached:
        return out
    for ci, entities in enumerate(index.chunk_entities):
        best = max((reached.get(ei, 0.0) for ei in entities), default=0.0)
        if best > 0:
            out[ci] = best
    return out


def explain(
    chunk_index: int, expansion: Expansion, index: GraphIndex, via: int = -1
) -> tuple[list[str], int]:
    """The cheapest explanation of a chunk: seed entity → … → an entity the chunk mentions
    (``via`` forces the end entity, e.g. the document's subject). Returns (path as readable
    steps, entity index it ends on) or ([], -1) if unreachable."""
    best: tuple[float, int] | None = None
    candidates = [via] if via >= 0 else index.chunk_entities[chunk_index]
    for ei in candidates:
        r = expansion.reach.get(ei)
        if r is not None and (best is None or r.cost < best[0]):
            best = (r.cost, ei)
    if best is None:
        return [], -1
    ei = best[1]
    steps = expansion.path_to(ei, index)
    text = [
        f"{s.source} -[{s.relation}]-> {s.target}"
        if s.forward
        else f"{s.source} <-[{s.relation}]- {s.target}"
        for s in steps
    ]
    if via >= 0:
        text.append(f"{index.entity_names[ei]} is the subject of this document")
    else:
        text.append(f"{index.entity_names[ei]} mentioned in passage")
    return text, ei
