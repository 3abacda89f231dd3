// Every chunk with its document, position and text, for an exported graph.
MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id, d.id, c.idx, c.text
ORDER BY c.id
