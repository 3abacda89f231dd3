// Documents mentioning the entity, by how often they do.
MATCH (d:Document)-[:HAS_CHUNK]->(:Chunk)-[m:MENTIONS]->(e:Entity {id: $id})
RETURN d.id, d.title, sum(m.count) AS mentions
ORDER BY mentions DESC, d.title, d.id
LIMIT $limit
