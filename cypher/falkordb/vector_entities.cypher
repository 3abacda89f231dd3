// As vector_chunks: cosine distance, searched $candidates wide, the best $k kept.
CALL db.idx.vector.queryNodes('Entity', 'embedding', $candidates, vecf32($embedding))
YIELD node AS e, score
RETURN e.id, e.name, e.type, score
ORDER BY score, e.id
LIMIT $k
