"""What a retrieval returns: ranked results with their scores and paths, and what the graph
preset learnt about the question on the way."""

from __future__ import annotations

from dataclasses import dataclass, field

from retrieval.linking import LinkedEntity

__all__ = ["LinkedEntity", "Retrieval", "SearchResult"]


@dataclass(frozen=True)
class SearchResult:
    chunk_id: str
    doc_id: str
    doc_title: str
    text: str
    score: float
    components: dict[str, float] = field(default_factory=dict)
    path: list[str] = field(default_factory=list)
    tokens: int = 0

    def as_dict(self) -> dict[str, object]:
        return {
            "chunk_id": self.chunk_id,
            "doc_id": self.doc_id,
            "document_title": self.doc_title,
            "text": self.text,
            "score": self.score,
            "components": self.components,
            "path": self.path,
        }


@dataclass
class Retrieval:
    """Results plus what the graph preset learnt about the question on the way."""

    preset: str
    results: list[SearchResult] = field(default_factory=list)
    linked: list[LinkedEntity] = field(default_factory=list)
    bridges: list[tuple[str, str]] = field(default_factory=list)  # (entity id, name)

    def as_dict(self) -> dict[str, object]:
        return {
            "preset": self.preset,
            "results": [r.as_dict() for r in self.results],
            "linked_entities": [x.as_dict() for x in self.linked],
            "bridge_entities": [{"entity_id": i, "name": n} for i, n in self.bridges],
        }
