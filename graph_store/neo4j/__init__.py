"""Server adapter: Neo4j 5.26 with GDS and APOC."""
