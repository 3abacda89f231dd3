"""Pydantic models of the graph and the schema version both stores write and check."""

from graph_schema.models import (
    RELATION_TYPE_PATTERN,
    Alias,
    Chunk,
    Document,
    DocumentGraph,
    Entity,
    Mention,
    NumericFact,
    Relation,
)
from graph_schema.version import EMBEDDED_SCHEMA_VERSION, SCHEMA_VERSION

__all__ = [
    "EMBEDDED_SCHEMA_VERSION",
    "RELATION_TYPE_PATTERN",
    "SCHEMA_VERSION",
    "Alias",
    "Chunk",
    "Document",
    "DocumentGraph",
    "Entity",
    "Mention",
    "NumericFact",
    "Relation",
]
