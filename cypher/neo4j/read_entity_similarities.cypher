// Each entity's name-embedding cosine with $vector (Neo4j's function gives (1 + cos) / 2, as
// the vector index does; the read model maps it back).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.id, CASE WHEN e.embedding IS NULL THEN null
                  ELSE vector.similarity.cosine(e.embedding, $vector) END
