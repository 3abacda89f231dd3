MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.id, b.id, r.type, r.weight
