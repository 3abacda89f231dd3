MATCH (d:Document {id: $id})-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id, d.id, d.title, c.text, c.idx
ORDER BY c.idx
