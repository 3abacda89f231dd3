"""The ``GraphExplorer`` port: what the API, the explorer page and text2cypher ask of a store
beyond retrieval. Both adapters implement it through a mixin (``kuzu_explore``,
``neo4j_explore``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from graph_store.explore_types import (
    CypherAnswer,
    EdgeInfo,
    EntityDetails,
    EntityRank,
    GraphDetails,
    GraphPath,
    SchemaDescription,
)
from graph_store.types import EntityHit


@runtime_checkable
class GraphExplorer(Protocol):
    def lookup_entities(self, q: str, k: int = 10) -> list[EntityHit]:
        """Entities an analyst may mean by ``q``, best first: the exact normalised alias,
        then aliases starting with it, then full-text matches over alias names.
        ``EntityHit.matched`` is the alias that matched."""

    def entity_details(self, entity_id: str) -> EntityDetails:
        """Raises NotFoundError when no such entity exists."""

    def edge_evidence(self, source_id: str, target_id: str) -> list[EdgeInfo]:
        """Every ``RELATED`` relation between the two entities, in either direction,
        strongest first, with its evidence chunks. NotFoundError for an unknown entity."""

    def paths(
        self, from_id: str, to_id: str, max_hops: int = 3, limit: int = 20
    ) -> list[GraphPath]:
        """Shortest ``RELATED`` paths (either direction) of at most ``max_hops`` (1..3, else
        InputError); empty when none is that short. NotFoundError for an unknown entity."""

    def entity_ranks(self, entity_ids: Sequence[str]) -> dict[str, EntityRank]:
        """PageRank and mention count per known id (unknown ids left out)."""

    def graph_details(self) -> GraphDetails:
        """Documents, chunk texts, entity types/PageRank/aliases and relation evidence of the
        whole graph, for exports."""

    def describe_schema(self) -> SchemaDescription:
        """Node labels and relationship types with their properties, read from the store
        (embedding vectors and internal bookkeeping left out)."""

    def run_read_only(
        self,
        query: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float = 30.0,
        max_rows: int = 1000,
    ) -> list[dict[str, Any]]:
        """Run untrusted Cypher only as a read: anything that would write, load or export
        files, change settings or run several statements raises ReadOnlyViolation."""


class ChatReply(Protocol):
    @property
    def content(self) -> str: ...


@runtime_checkable
class ChatModel(Protocol):
    """The part of the LLM port (``llm.LlmClient``) that writing Cypher needs; graph_store sits
    below ``llm`` and names it structurally."""

    @property
    def model(self) -> str: ...

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        max_tokens: int,
        json_schema: dict[str, Any] | None = None,
        temperature: float | None = None,
    ) -> ChatReply: ...


@runtime_checkable
class NativeText2Cypher(Protocol):
    """A store with its own question → Cypher component (Neo4j: neo4j-graphrag's
    Text2CypherRetriever), still run only through ``run_read_only``. ``schema`` is the text
    the model is shown about the graph."""

    def text2cypher(
        self,
        question: str,
        llm: ChatModel,
        *,
        schema: str,
        examples: Sequence[str] = (),
        timeout_s: float = 30.0,
        max_rows: int = 200,
    ) -> CypherAnswer: ...
