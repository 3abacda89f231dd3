MATCH (d:Document {id: $id})-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id, d.id, d.title, c.text, c.index
ORDER BY c.index
