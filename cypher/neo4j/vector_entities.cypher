CALL db.index.vector.queryNodes('entity_embedding', $k, $embedding)
YIELD node AS e, score
RETURN e.id, e.name, e.type, score
ORDER BY score DESC
