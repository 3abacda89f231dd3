MATCH (c:Chunk)-[m:MENTIONS]->(e:Entity) RETURN c.id, e.id, m.count
