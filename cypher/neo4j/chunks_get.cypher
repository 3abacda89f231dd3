MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk)
WHERE c.id IN $ids
RETURN c.id, d.id, d.title, c.text, c.index
