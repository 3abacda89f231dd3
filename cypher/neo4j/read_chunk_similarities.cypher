// Each chunk's similarity with each of $vectors, in their order: Neo4j's function gives the
// index's (1 + cos) / 2, which the read model maps back to the cosine.
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
RETURN c.id, [v IN $vectors | vector.similarity.cosine(c.embedding, v)]
