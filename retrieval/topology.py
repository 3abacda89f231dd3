"""The graph's topology held in the process as arrays: the walk and the path search of a
store that keeps texts, names and vectors itself (Neo4j's ``database`` read model).

The in-memory read model answers a question's walk and paths in about 27 ms on the 5x 2Wiki
graph (226,000 nodes); Neo4j answered them in about 190 ms from the database, in four to seven
round trips whose rows the process turned back into a graph each time. Their topology alone
is a few arrays (node ids sorted, one CSR for the walk, one for the relations: about 40 MB
at 5x, where the whole projection held about 1.2 GB), so the walk (``LocalWalk``) and the path
search (``expand``) run here as they do on the embedded store, over the same weights.

Positions are places in the sorted ids (chunks and entities together), so an id is found by
binary search and ties between equal paths, which go to the lower id, compare positions.
Built from one ``TopologyData`` per graph version; pure computation, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from scipy import sparse

from graph_store.read_model import PathHop, ReachKeep
from graph_store.types import TopologyData
from retrieval.expansion import LastRound, expand, kept_positions, path_hops
from retrieval.projection import NEXT_WEIGHT, SUBJECT_WEIGHT, LocalWalk, top_nodes


class Topology:
    def __init__(
        self,
        data: TopologyData,
        next_weight: float = NEXT_WEIGHT,
        subject_weight: float = SUBJECT_WEIGHT,
    ) -> None:
        self.version = data.version
        self.ids = data.ids
        self.size = len(data.ids)
        self.entity = data.entity
        self._walk_arrays(data, next_weight, subject_weight)
        self._relation_arrays(data)
        self._mention_arrays(data)
        self._name_bytes = data.name_bytes
        self._name_offsets = data.name_offsets

    def _walk_arrays(self, data: TopologyData, next_weight: float, subject_weight: float) -> None:
        """The walk's graph, as ``retrieval.projection.Projection`` weighs it: mentions by
        their count, times ``subject_weight`` for the document's subject; relations by their
        weight; a chunk and the next by ``next_weight``. Undirected, parallel edges summed."""
        mention_w = data.mention_counts * np.where(data.mention_subject, subject_weight, 1.0)
        ends = np.concatenate([data.mentions, data.relations, data.next_pairs])
        weights = np.concatenate(
            [
                mention_w,
                data.relation_weights,
                np.full(len(data.next_pairs), next_weight),
            ]
        ).astype(np.float32)
        keep = (ends[:, 0] != ends[:, 1]) & (weights > 0)
        a, b, w = ends[keep, 0], ends[keep, 1], weights[keep]
        adjacency = sparse.csr_matrix(
            (np.concatenate([w, w]), (np.concatenate([a, b]), np.concatenate([b, a]))),
            shape=(self.size, self.size),
        )
        adjacency.sum_duplicates()
        self.adjacency = adjacency
        degree = np.asarray(adjacency.sum(axis=1), dtype=np.float64).ravel()
        self.inv_degree = np.divide(1.0, degree, out=np.zeros_like(degree), where=degree > 0)
        self.dangling = degree == 0

    def _relation_arrays(self, data: TopologyData) -> None:
        """The relations for path search (``retrieval.expansion.RelationGraph``): each
        stored edge once per end, an entity's edges in stored order, forward copies first."""
        rel = data.relations
        keep = rel[:, 0] != rel[:, 1]
        a, b = rel[keep, 0], rel[keep, 1]
        weight = np.clip(data.relation_weights[keep], 0.0, 1.0)
        # Types numbered in string order, so that a type's number is its rank (equal paths
        # go to the lower relation type in string order).
        names = np.asarray(data.type_names, dtype=str)
        rank = np.argsort(np.argsort(names)).astype(np.int16)
        kind = rank[data.relation_types[keep]] if names.size else data.relation_types[keep]
        sources = np.concatenate([a, b])
        order = np.argsort(sources, kind="stable")
        self.rel_target = np.concatenate([b, a])[order].astype(np.int32)
        # float64 as on every store: equal paths are told apart by cost, then strength, and
        # float32 sums made paths of equal cost unequal (and the reverse).
        self.rel_unit_weight = np.tile(weight, 2)[order]
        self.rel_type = np.tile(kind, 2)[order].astype(np.int16)
        self.rel_forward = np.repeat([True, False], a.size)[order]
        counts = np.bincount(sources, minlength=self.size)
        self.rel_indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.relation_type_names = sorted(data.type_names)
        self.rel_type_rank = self.rel_type
        # Positions are ranks by id already.
        self.entity_id_rank = np.arange(self.size, dtype=np.int32)

    def _mention_arrays(self, data: TopologyData) -> None:
        """The mentions both ways, as CSR over positions: a chunk's entities with their
        counts in the order the store gave them (a result's explanation goes to the first of
        equally cheap paths, as the store's own read of a chunk's entities does), an
        entity's chunks in position (that is, id) order."""
        chunk, entity = data.mentions[:, 0], data.mentions[:, 1]
        by_chunk = np.argsort(chunk, kind="stable")
        self.mention_entity = entity[by_chunk].astype(np.int32)
        self.mention_count = data.mention_counts[by_chunk].astype(np.int32)
        self.mention_indptr = _indptr(chunk, self.size)
        by_entity = np.lexsort((chunk, entity))
        self.mentioned_in = chunk[by_entity].astype(np.int32)
        self.mentioned_indptr = _indptr(entity, self.size)

    def has_names(self) -> bool:
        return self._name_offsets is not None

    def name(self, position: int) -> str:
        """The entity's name ("" for a chunk, or when the topology was read without names)."""
        if self._name_offsets is None:
            return ""
        start, end = self._name_offsets[position], self._name_offsets[position + 1]
        return self._name_bytes[start:end].decode("utf-8")

    def entity_names(self, ids: Sequence[str]) -> dict[str, str]:
        """``GraphReadModel.entity_names`` (needs names: ``has_names``)."""
        return {
            node: self.name(pos)
            for node, pos in zip(ids, self.positions(ids).tolist(), strict=True)
            if pos >= 0 and self.entity[pos]
        }

    def chunk_entities(self, chunk_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        """``GraphReadModel.chunk_entities``: the entities each chunk mentions, with counts."""
        out: dict[str, dict[str, int]] = {}
        for node, pos in zip(chunk_ids, self.positions(chunk_ids).tolist(), strict=True):
            start, end = self.mention_indptr[pos], self.mention_indptr[pos + 1]
            if pos >= 0 and end > start:
                out[node] = {
                    self.node_id(e): n
                    for e, n in zip(
                        self.mention_entity[start:end].tolist(),
                        self.mention_count[start:end].tolist(),
                        strict=True,
                    )
                }
        return out

    def entity_chunks(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        """``GraphReadModel.entity_chunks``: the chunks that mention each entity."""
        out: dict[str, list[str]] = {}
        for node, pos in zip(entity_ids, self.positions(entity_ids).tolist(), strict=True):
            start, end = self.mentioned_indptr[pos], self.mentioned_indptr[pos + 1]
            if pos >= 0 and end > start:
                out[node] = [self.node_id(c) for c in self.mentioned_in[start:end].tolist()]
        return out

    def positions(self, ids: Sequence[str]) -> np.ndarray:
        """Each id's position, -1 for an id this topology does not hold."""
        if not ids or not self.size:
            return np.full(len(ids), -1, dtype=np.int64)
        keys = np.asarray([node.encode("utf-8") for node in ids], dtype=bytes)
        at = np.minimum(np.searchsorted(self.ids, keys), self.size - 1)
        return np.where(self.ids[at] == keys, at, -1).astype(np.int64)

    def node_id(self, position: int) -> str:
        return bytes(self.ids[position]).decode("utf-8")

    def personalized_top(
        self,
        seeds: Mapping[str, float],
        k: int,
        damping: float = 0.85,
        tol: float = 1e-6,
        prune: float = 0.0,
        max_iter: int = 100,
    ) -> dict[str, float]:
        """The ``k`` nodes a walk restarting at ``seeds`` visits most, best first (ties by
        id), as ``Projection.personalized_top`` walks them."""
        names = list(seeds)
        weights: dict[int, float] = {}
        for pos, name in zip(self.positions(names).tolist(), names, strict=True):
            w = float(seeds[name])
            if pos >= 0 and w > 0 and np.isfinite(w):
                weights[pos] = weights.get(pos, 0.0) + w
        if not weights or k <= 0:
            return {}
        walk = LocalWalk(self, weights, damping)
        walk.run(prune, tol, max_iter)
        return top_nodes(walk.nodes, walk.mass, k, self.node_id)

    def relation_reach(
        self,
        sources: Mapping[str, float],
        max_hops: int,
        hop_decay: float = 0.8,
        backward: float = 0.5,
        keep: ReachKeep | None = None,
    ) -> dict[str, PathHop]:
        """``GraphReadModel.relation_paths``; every ``PathHop.name`` is empty when the
        topology was read without names (the caller reads those from the store)."""
        names = list(sources)
        seeds = {
            pos: float(sources[name])
            for pos, name in zip(self.positions(names).tolist(), names, strict=True)
            if pos >= 0 and self.entity[pos]
        }
        found = [] if keep is None else self.positions(sorted(keep.targets)).tolist()
        targets = [t for t in found if t >= 0]
        reach = expand(seeds, self, max_hops, hop_decay, backward, LastRound.of(keep, targets))
        reached = kept_positions(reach, keep, targets)
        return path_hops(
            reach,
            reached,
            self.rel_type,
            self.relation_type_names,
            self.rel_forward,
            self.node_id,
            self.name,
        )


def _indptr(rows: np.ndarray, size: int) -> np.ndarray:
    """CSR row pointers of entries sorted by ``rows`` (positions under ``size``)."""
    counts = np.bincount(rows, minlength=size) if rows.size else np.zeros(size, dtype=np.int64)
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
