"""Version of the on-disk graph layout.

Bump it whenever node/relationship tables or their properties change; a store written with
another version refuses to open instead of being read with the wrong layout.
"""

SCHEMA_VERSION = "1"

# The embedded (Kùzu) store's own layout, which moved on alone: "2" keeps a relationship's id
# lists as one string instead of STRING[] (cypher/kuzu/schema.cypher says why). Neo4j and
# FalkorDB stores keep SCHEMA_VERSION.
EMBEDDED_SCHEMA_VERSION = "2"
