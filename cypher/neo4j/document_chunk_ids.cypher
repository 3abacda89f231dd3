MATCH (:Document {id: $id})-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id
