MATCH (e:Entity)
RETURN e.id, e.name, e.type, e.pagerank, e.embedding
