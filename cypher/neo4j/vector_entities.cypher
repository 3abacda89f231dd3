// As vector_chunks: search $candidates (>= $k) wide in the approximate index, keep the best $k.
CALL db.index.vector.queryNodes('entity_embedding', $candidates, $embedding)
YIELD node AS e, score
RETURN e.id, e.name, e.type, score
ORDER BY score DESC
LIMIT $k
