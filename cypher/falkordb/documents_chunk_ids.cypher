UNWIND $ids AS id
MATCH (:Document {id: id})-[:HAS_CHUNK]->(c:Chunk)
RETURN c.id
