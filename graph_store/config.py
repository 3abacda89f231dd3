"""Graph-store settings owned by the adapters (``KG_NEO4J__*``)."""

from __future__ import annotations

from pydantic import BaseModel


class Neo4jSettings(BaseModel):
    uri: str = "bolt://localhost:7687"
    user: str = "neo4j"
    password: str = ""
    database: str = "neo4j"
