MATCH (e:Entity)
RETURN e.id, e.name, e.type, e.pagerank
ORDER BY e.id
