// Each chunk's similarity with each of the $entities' name embeddings, in their order (null
// for an entity without one): Neo4j's function gives the index's (1 + cos) / 2, which the read
// model maps back to the cosine. The names' vectors are read once, in a list kept in order
// ([null] holds the place of a missing one, which collect() would drop).
CALL () {
  UNWIND $entities AS id
  OPTIONAL MATCH (e:Entity {id: id})
  RETURN collect([e.embedding]) AS names
}
// Each chunk's vector is read once into a variable: named inside the list it was read from
// the store once per name (265 chunks x 9 names: 60-66 ms against 27 ms).
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
WITH c.id AS chunk, c.embedding AS vector, names
RETURN chunk, [v IN names | CASE WHEN v[0] IS NULL THEN null
                                 ELSE vector.similarity.cosine(vector, v[0]) END]
