// $query as in fulltext_chunks.
CALL db.idx.fulltext.queryNodes('Alias', $query)
YIELD node AS a, score
WITH a, score
ORDER BY score DESC, a.normalized
LIMIT $k
MATCH (a)-[:ALIAS_OF]->(e:Entity)
RETURN e.id, e.name, e.type, score, a.name
ORDER BY score DESC, e.id
