"""The Neo4j server every Neo4j test runs against: the one ``NEO4J_URI`` names (``make test``
starts one and sets it), else a local Neo4j + GDS + APOC from the Maven jars that the test
session starts itself (kg/neo4j_server.py) and stops at its end. No Neo4j test skips for want
of a server: one that cannot be started or reached fails with the reason."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Not 7687: a developer's own server (docker compose) may hold that one, and these tests wipe
# the database they are pointed at.
LOCAL_URI = "bolt://127.0.0.1:7688"
LOCAL_PASSWORD = "kg-first-test"
LOCAL_HOME = ROOT / ".kg" / "test-neo4j"

# Whether this session owns the server (started it, stops it); decided before anything reads
# the variables below.
STARTS_OWN = not os.environ.get("NEO4J_URI")
if STARTS_OWN:
    os.environ["NEO4J_URI"] = LOCAL_URI
    os.environ["NEO4J_USER"] = "neo4j"
    os.environ["NEO4J_PASSWORD"] = LOCAL_PASSWORD

URI = os.environ["NEO4J_URI"]
USER = os.environ.get("NEO4J_USER", "neo4j")
PASSWORD = os.environ.get("NEO4J_PASSWORD", "")
DATABASE = os.environ.get("NEO4J_DATABASE", "neo4j")
