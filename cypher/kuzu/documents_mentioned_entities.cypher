UNWIND $ids AS id
MATCH (d:Document {id: id})-[:HAS_CHUNK]->(:Chunk)-[:MENTIONS]->(e:Entity)
RETURN DISTINCT e.id
