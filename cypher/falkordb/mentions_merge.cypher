UNWIND $rows AS r
MATCH (c:Chunk {id: r.chunk_id})
MATCH (e:Entity {id: r.entity_id})
MERGE (c)-[m:MENTIONS]->(e)
SET m.count = r.count
