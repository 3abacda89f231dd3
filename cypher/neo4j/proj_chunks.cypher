MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id, d.id, c.index, c.tokens, c.embedding, c.text
ORDER BY c.id
