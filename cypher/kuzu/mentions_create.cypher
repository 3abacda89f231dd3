UNWIND $rows AS r
MATCH (c:Chunk {id: r.chunk_id}), (e:Entity {id: r.entity_id})
CREATE (c)-[:MENTIONS {count: r.count}]->(e)
