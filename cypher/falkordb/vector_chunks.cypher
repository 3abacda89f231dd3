// FalkorDB returns the cosine distance (1 - cos); the adapter maps it back to cos. The index
// is approximate (HNSW): $candidates (>= $k) widens the search, the best $k are kept.
CALL db.idx.vector.queryNodes('Chunk', 'embedding', $candidates, vecf32($embedding))
YIELD node AS c, score
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.idx, score
ORDER BY score, c.id
LIMIT $k
