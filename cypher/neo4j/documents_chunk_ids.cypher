MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk)
WHERE d.id IN $ids
RETURN c.id
