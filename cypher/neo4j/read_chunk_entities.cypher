UNWIND $ids AS id
MATCH (c:Chunk {id: id})-[m:MENTIONS]->(e:Entity)
RETURN c.id, e.id, coalesce(m.count, 1)
