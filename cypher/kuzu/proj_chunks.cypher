MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id, d.id, c.idx, c.tokens, c.embedding, c.text
