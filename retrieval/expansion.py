"""Multi-hop expansion over typed relations: the paths that explain why a passage was
reached from the question's entities, and the bridge entities on them.

Path search is a cheapest-path search from the linked entities over at most ``max_hops``
relation edges. An edge costs more the weaker it is, so typed relations (weight 1) are
preferred to co-occurrence (low weight) and a path through a stated relation wins over a
chance one. It runs as ``max_hops`` rounds of Bellman–Ford relaxation over the index's
relation arrays: three hops from a common name reach most of a 40k-entity graph, which a
per-edge Python loop cannot walk within a query's budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from graph_store.read_model import PathHop, ReachKeep
from retrieval.graph_index import GraphIndex


class RelationGraph(Protocol):
    """The relation edges path search walks, as CSR arrays over entity positions: for
    position ``a`` its edges are ``rel_indptr[a]:rel_indptr[a + 1]``, each with its target,
    weight in [0, 1] (stepping over it costs 2 - weight), whether it is walked in its stored
    direction and its relation type's rank in string order; ``entity_id_rank`` is each
    position's rank by id (ties between equal paths go to the lower id)."""

    rel_indptr: np.ndarray
    rel_target: np.ndarray
    rel_unit_weight: np.ndarray
    rel_forward: np.ndarray
    rel_type_rank: np.ndarray
    entity_id_rank: np.ndarray


@dataclass(frozen=True)
class PathStep:
    source: str
    relation: str
    target: str
    forward: bool


@dataclass(frozen=True)
class Reach:
    cost: float
    hops: int
    parent: int | None
    strength: float  # seed weight times edge weights along the path, decayed per hop


class Expansion:
    """Per entity: cheapest path cost (inf when unreached), hops, parent entity (-1 for a seed
    or an unreached entity), the relation edge into it and the path's strength."""

    def __init__(self, n_entities: int) -> None:
        self.cost = np.full(n_entities, np.inf)
        self.hops = np.zeros(n_entities, dtype=np.int32)
        self.parent = np.full(n_entities, -1, dtype=np.int64)
        self.edge = np.full(n_entities, -1, dtype=np.int64)
        self.strength = np.zeros(n_entities)

    def reached(self, ei: int) -> bool:
        return bool(np.isfinite(self.cost[ei]))

    def get(self, ei: int) -> Reach | None:
        if not self.reached(ei):
            return None
        parent = int(self.parent[ei])
        return Reach(
            float(self.cost[ei]),
            int(self.hops[ei]),
            parent if parent >= 0 else None,
            float(self.strength[ei]),
        )

    def strong(self, min_strength: float) -> np.ndarray:
        """Entities reached over at least one relation with at least this strength."""
        return np.flatnonzero((self.hops > 0) & (self.strength >= min_strength))

    def path_to(self, ei: int, index: GraphIndex) -> list[PathStep]:
        steps: list[PathStep] = []
        node = ei
        while self.reached(node) and self.parent[node] >= 0:
            parent, edge = int(self.parent[node]), int(self.edge[node])
            relation = index.relation_type_names[index.rel_type[edge]]
            forward = bool(index.rel_forward[edge])
            src, dst = index.entity_names[parent], index.entity_names[node]
            steps.append(PathStep(src, relation, dst, forward))
            node = parent
        return steps[::-1]


@dataclass(frozen=True)
class LastRound:
    """What a caller keeps of the entities the final round reaches: those at least
    ``min_strength`` strong (None: none for strength) and the ``targets`` (positions). An
    entity first reached in the final round is no other's parent, so the rest need not be
    settled: the final round is the widest (three hops from a common name reach tens of
    thousands of entities) and most of its offers go to entities nobody reads. An entity
    reached before still takes a cheaper offer, as without this: it may be on a kept path."""

    min_strength: float | None
    targets: np.ndarray

    @staticmethod
    def of(keep: ReachKeep | None, targets: Sequence[int]) -> LastRound | None:
        """The final round of ``kept_positions(reach, keep, targets)``'s reach."""
        if keep is None:
            return None
        return LastRound(keep.min_strength, np.asarray(targets, dtype=np.int64))

    def settled(self, targets: np.ndarray, strength: np.ndarray, known: np.ndarray) -> np.ndarray:
        """Which offers to settle: every offer to an entity reached before (``known``), a
        target, or one that some offer makes strong enough (its cheapest offer decides
        whether it is)."""
        wanted = known | np.isin(targets, self.targets)
        if self.min_strength is not None:
            strong = np.unique(targets[strength >= self.min_strength])
            wanted |= np.isin(targets, strong)
        return wanted


def expand(
    seeds: dict[int, float],
    index: RelationGraph,
    max_hops: int,
    hop_decay: float = 0.8,
    backward: float = 0.5,
    last: LastRound | None = None,
) -> Expansion:
    """Cheapest paths of at most ``max_hops`` relations from any seed entity. ``strength``
    of a reached entity is its seed's weight times the path's edge weights, times
    ``hop_decay`` per hop after the first and ``backward`` per edge walked against its
    direction. Stated relations point from the part to the whole (MEMBER_OF, PART_OF,
    IMPLEMENTS, LEADS): walking with them climbs to the context an entity sits in, walking
    against them goes down to its siblings' parts. With ``last``, the final round settles
    only the entities its caller keeps (``LastRound``)."""
    out = Expansion(len(index.entity_id_rank))
    if not seeds:
        return out
    top = max(seeds.values()) or 1.0
    frontier = np.fromiter(seeds, dtype=np.int64, count=len(seeds))
    out.cost[frontier] = 0.0
    out.strength[frontier] = np.fromiter(seeds.values(), dtype=np.float64) / top
    indptr = index.rel_indptr
    weight = index.rel_unit_weight
    for round_ in range(max_hops):
        counts = indptr[frontier + 1] - indptr[frontier]
        total = int(counts.sum())
        if total == 0:
            break
        src = np.repeat(frontier, counts)
        ends = np.cumsum(counts)
        edges = np.arange(total) + np.repeat(indptr[frontier] - (ends - counts), counts)
        targets = index.rel_target[edges]
        cand = out.cost[src] + (2.0 - weight[edges])
        # Only offers cheaper than the target's cost before this round can win it: the rest
        # (most of them, once a hub's neighbourhood is reached) are dropped before the sort.
        better = cand < out.cost[targets]
        if not better.any():
            break
        src, edges, targets, cand = src[better], edges[better], targets[better], cand[better]
        forward = index.rel_forward[edges]
        strength = out.strength[src] * weight[edges]
        strength = np.where(out.hops[src] > 0, strength * hop_decay, strength)
        strength = np.where(forward, strength, strength * backward)
        if last is not None and round_ == max_hops - 1:
            wanted = last.settled(targets, strength, np.isfinite(out.cost[targets]))
            src, edges, targets, cand = src[wanted], edges[wanted], targets[wanted], cand[wanted]
            forward, strength = forward[wanted], strength[wanted]
            if not targets.size:
                break
        # The cheapest offer per target, judged against costs before this round; equal costs
        # go to the stronger offer, then the lower source id, relation type, forward first.
        kind, via = index.rel_type_rank[edges], index.entity_id_rank[src]
        order = np.lexsort((~forward, kind, via, -strength, cand, targets))
        first = np.ones(order.size, dtype=bool)
        first[1:] = targets[order[1:]] != targets[order[:-1]]
        best = order[first]
        v, u, e = targets[best], src[best], edges[best]
        out.cost[v] = cand[best]
        out.hops[v] = out.hops[u] + 1
        out.parent[v] = u
        out.edge[v] = e
        out.strength[v] = strength[best]
        frontier = v
    return out


def explain(
    chunk_index: int, expansion: Expansion, index: GraphIndex, via: int = -1
) -> tuple[list[str], int]:
    """The cheapest explanation of a chunk: seed entity → … → an entity the chunk mentions
    (``via`` forces the end entity, e.g. the document's subject). Returns (path as readable
    steps, entity index it ends on) or ([], -1) if unreachable."""
    candidates = [via] if via >= 0 else index.chunk_entities[chunk_index]
    reached = [ei for ei in candidates if expansion.reached(ei)]
    if not reached:
        return [], -1
    ei = min(reached, key=lambda e: float(expansion.cost[e]))
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


def kept_positions(reach: Expansion, keep: ReachKeep | None, targets: list[int]) -> np.ndarray:
    """Positions of the reached entities ``keep`` asks for (``targets``: the positions of its
    targets), with the entities on their paths (``graph_store.read_model.kept_paths`` over
    columns: objects only for what is read)."""
    reached = np.flatnonzero(np.isfinite(reach.cost))
    if keep is None:
        return reached
    wanted = reach.hops[reached] == 0
    if keep.min_strength is not None:
        wanted |= (reach.hops[reached] > 0) & (reach.strength[reached] >= keep.min_strength)
    wanted |= np.isin(reached, np.asarray(targets, dtype=np.int64))
    out: set[int] = set()
    for pos in reached[wanted].tolist():
        while pos >= 0 and pos not in out:
            out.add(pos)
            pos = int(reach.parent[pos])
    return np.asarray(sorted(out), dtype=np.int64)


def path_hops(
    reach: Expansion,
    reached: np.ndarray,
    rel_type: np.ndarray,
    type_names: Sequence[str],
    rel_forward: np.ndarray,
    node_id: Callable[[int], str],
    name: Callable[[int], str],
) -> dict[str, PathHop]:
    """The ``reached`` positions of ``reach`` as ``PathHop``s by id (``rel_type`` and
    ``rel_forward`` per relation edge, ``type_names`` per type). Columns become lists first:
    a 3-hop reach from a well-connected entity is thousands of entities, and reading numpy
    scalars one by one cost more than the walk."""
    edges = reach.edge[reached]
    known = edges >= 0  # a source has no edge (nor does a graph without relations)
    kinds = np.full(reached.size, -1, dtype=np.int64)
    kinds[known] = rel_type[edges[known]]
    walked = np.ones(reached.size, dtype=bool)
    walked[known] = rel_forward[edges[known]]
    out: dict[str, PathHop] = {}
    for pos, parent, hops, kind, fwd, strength, cost in zip(
        reached.tolist(),
        reach.parent[reached].tolist(),
        reach.hops[reached].tolist(),
        kinds.tolist(),
        walked.tolist(),
        reach.strength[reached].tolist(),
        reach.cost[reached].tolist(),
        strict=True,
    ):
        out[node_id(pos)] = PathHop(
            node_id(pos),
            name(pos),
            int(hops),
            node_id(parent) if parent >= 0 else None,
            type_names[kind] if kind >= 0 else "",
            bool(fwd),
            float(strength),
            float(cost),
        )
    return out
