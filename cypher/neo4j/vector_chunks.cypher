// Neo4j reports cosine as (1 + cos) / 2; the adapter maps it back to cos.
CALL db.index.vector.queryNodes('chunk_embedding', $k, $embedding)
YIELD node AS c, score
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.index, score
ORDER BY score DESC
