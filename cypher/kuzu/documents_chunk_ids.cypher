UNWIND $ids AS id
MATCH (d:Document {id: id})-[:HAS_CHUNK]->(c:Chunk)
RETURN d.id, c.id
