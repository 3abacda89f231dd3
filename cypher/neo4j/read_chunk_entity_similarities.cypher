// Each chunk's similarity with each of the $entities' name embeddings, in their order (null
// for an entity without one): Neo4j's function gives the index's (1 + cos) / 2, which the read
// model maps back to the cosine. The names' vectors are read once, in a list kept in order
// ([null] holds the place of a missing one, which collect() would drop).
CALL () {
  UNWIND $entities AS id
  OPTIONAL MATCH (e:Entity {id: id})
  RETURN collect([e.embedding]) AS names
}
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
RETURN c.id, [v IN names | CASE WHEN v[0] IS NULL THEN null
                                ELSE vector.similarity.cosine(c.embedding, v[0]) END]
