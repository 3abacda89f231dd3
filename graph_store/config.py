"""Graph-store settings owned by the adapters (``KG_NEO4J__*``, ``KG_FALKORDB__*``)."""

from __future__ import annotations

from typing import Literal

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
    # Where the graph preset's graph work runs. "database": in Neo4j (GDS authority, the walk
    # and relation paths as Cypher per question), so the API process holds no copy of the
    # graph. "topology": the vector and full-text indexes, texts, names and vectors stay in
    # Neo4j, and the walk and relation paths run in this process over the graph's topology
    # alone (ids and edges as arrays, read once per graph version in the background;
    # retrieval/topology.py). "memory": the whole graph projected into this process as on the
    # embedded store (refreshed when the graph version changes); per question only the vector
    # and full-text indexes are asked. Measured on 2Wiki (6,119 passages, docs/benchmarks.md,
    # "Latency", session 25): the graph preset's p50 against dense goes from 9.0x to 2.0x,
    # and the process holds 38.9 KB a passage for the graph (7.8 with "database"); for
    # "topology" see docs/benchmarks.md, "Scale", session 28.
    read_model: Literal["database", "topology", "memory"] = "topology"
    # "topology": a rebuild after a write starts at most this many times the last build's
    # duration after that build ended (under a steady ingest the process re-reads the graph
    # at most a fifth of the time; meanwhile the walk and the paths read the database).
    topology_rebuild_gap: float = Field(default=4.0, ge=0)


class FalkorDBSettings(BaseModel):
    # How long open() waits for the FalkorDB server to answer: it replays its append-only
    # file before it does (0.3 s for an empty graph here; the AOF of the 2Wiki corpus replays
    # in seconds), and how long close() waits for it to leave before SIGKILL.
    start_timeout_s: float = Field(default=60.0, gt=0)
    # How long one reply from the server may take before the client gives up (redis-py's
    # socket_timeout, which the FalkorDB client leaves unset: a stuck server hangs a caller for
    # ever). Generous on purpose: the largest write block (a batch of a few hundred documents)
    # and the slowest reads take seconds, but a MuSiQue bench run on the 2-core machine at load
    # average 40+ died on a socket read timeout, so a busy server is given minutes, and a
    # timeout then surfaces as StoreUnavailable naming this setting (KG_FALKORDB__SOCKET_TIMEOUT_S).
    socket_timeout_s: float = Field(default=300.0, gt=0)
