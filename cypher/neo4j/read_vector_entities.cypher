// Entities nearest a vector, with how many chunks mention each (their specificity).
// Neo4j reports cosine as (1 + cos) / 2; the read model maps it back to cos.
CALL db.index.vector.queryNodes('entity_embedding', $k, $embedding)
YIELD node AS e, score
RETURN e.id, e.name, score, COUNT { (e)<-[:MENTIONS]-(:Chunk) }
ORDER BY score DESC
