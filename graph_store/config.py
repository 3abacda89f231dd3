"""Graph-store settings owned by the adapters (``KG_NEO4J__*``, ``KG_FALKORDB__*``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Neo4jSettings(BaseModel):
    uri: str = "bolt://localhost:7687"
    user: str = "neo4j"
    password: str = ""
    database: str = "neo4j"
    # How long the driver keeps retrying a transaction that failed for a transient reason
    # (server unreachable, leader switch) before the error reaches us. The driver's own default
    # is 30 s, which kept an API request waiting half a minute before its 503 while the server
    # was down; a few seconds still rides out a cluster leader election or a restart's hiccup.
    max_retry_time_s: float = Field(default=5.0, ge=0)
    # How long opening one TCP/Bolt connection may take (driver default 30 s): a server that
    # does not answer at all (host down, packets dropped) fails in this time, not in half a minute.
    connection_timeout_s: float = Field(default=5.0, gt=0)


class FalkorDBSettings(BaseModel):
    # How long open() waits for the FalkorDB server to answer: it replays its append-only
    # file before it does (0.3 s for an empty graph here; the AOF of the 2Wiki corpus replays
    # in seconds), and how long close() waits for it to leave before SIGKILL.
    start_timeout_s: float = Field(default=60.0, gt=0)
