"""What the agent knows of the graph around one question: the relation paths from its linked
entities and the authority of what they reach, all asked of the read model
(``graph_store.read_model``), the same port and the same path search as the ``graph`` preset.

Evidence reached through the graph is as authoritative as the most central entity it
mentions (stored global PageRank as a percentile, so settings can speak of "the top quarter"),
discounted by the strength of the path that reached it (relation weights: typed relations
count fully, co-occurrence weakly). Nothing here walks the graph itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from graph_store.read_model import GraphReadModel, PathHop


class GraphReach:
    def __init__(self, model: GraphReadModel, reach: Mapping[str, PathHop]) -> None:
        self._model = model
        self.reach = dict(reach)
        self._percentiles = model.authority_percentiles(
            [e for e, hop in self.reach.items() if hop.hops > 0]
        )
        self._mentions: dict[str, dict[str, int]] = {}

    @classmethod
    def of(cls, model: GraphReadModel, sources: Mapping[str, float], max_hops: int) -> GraphReach:
        # Strength is the plain product of relation weights (no decay per hop, no penalty for
        # walking a relation backwards): the agent weighs what a path says, not its shape.
        paths = model.relation_paths(sources, max_hops, hop_decay=1.0, backward=1.0)
        return cls(model, paths if sources else {})

    def percentile(self, entity_id: str) -> float:
        return self._percentiles.get(entity_id, 0.0)

    def authority(self, entity_id: str) -> float:
        hop = self.reach.get(entity_id)
        return self.percentile(entity_id) * hop.strength if hop is not None else 0.0

    def load(self, chunk_ids: Iterable[str]) -> None:
        """Fetch the mentions of chunks not seen yet, in one read-model call."""
        missing = sorted({c for c in chunk_ids if c not in self._mentions})
        if missing:
            found = self._model.chunk_entities(missing)
            for c in missing:
                self._mentions[c] = found.get(c, {})

    def mentions(self, chunk_id: str) -> dict[str, int]:
        self.load([chunk_id])
        return self._mentions[chunk_id]

    def names(self, entity_ids: Sequence[str]) -> dict[str, str]:
        """Names of any entities, reached or not (one read-model call)."""
        return self._model.entity_names(entity_ids) if entity_ids else {}

    def pages(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        """The chunks of the documents each entity is the subject of."""
        return self._model.subject_chunks(entity_ids) if entity_ids else {}

    def name(self, entity_id: str) -> str:
        hop = self.reach.get(entity_id)
        return hop.name if hop is not None else entity_id

    def path(self, entity_id: str) -> list[str]:
        """Names and relation types from a source to ``entity_id``: [a, REL, b, REL, c]."""
        out: list[str] = []
        node: str | None = entity_id
        while node is not None and node in self.reach:
            hop = self.reach[node]
            out.append(hop.name)
            if hop.via is not None:
                out.append(hop.relation)
            node = hop.via
        return list(reversed(out))

    def chunk_distance(self, chunk_id: str) -> int | None:
        hops = [self.reach[e].hops for e in self.mentions(chunk_id) if e in self.reach]
        return min(hops) if hops else None

    def chunk_authority(self, chunk_id: str) -> tuple[float, str | None]:
        """Best (entity percentile x path strength) over the reached entities the chunk
        mentions, with that entity's id; sources themselves (0 hops) do not count."""
        best, which = 0.0, None
        for entity in self.mentions(chunk_id):
            hop = self.reach.get(entity)
            if hop is None or hop.hops == 0:
                continue
            value = self.percentile(entity) * hop.strength
            if value > best:
                best, which = value, entity
        return best, which
