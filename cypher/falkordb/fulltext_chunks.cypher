// $query is RediSearch syntax: the adapter's word list joined by '|' (any word matches).
CALL db.idx.fulltext.queryNodes('Chunk', $query)
YIELD node AS c, score
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.idx, score
ORDER BY score DESC, c.id
LIMIT $k
