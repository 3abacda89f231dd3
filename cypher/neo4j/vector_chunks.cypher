// Neo4j reports cosine as (1 + cos) / 2; the adapter maps it back to cos.
// The index is approximate (HNSW, quantized), and its k is also how wide it searches: asked
// for exactly 5 of 18 8-d test vectors with many duplicates, it returned five at cos 0 while
// two at cos 1 existed. $candidates (>= $k) widens the search; the best $k are kept.
CALL db.index.vector.queryNodes('chunk_embedding', $candidates, $embedding)
YIELD node AS c, score
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.index, score
ORDER BY score DESC
LIMIT $k
