MATCH (d:Document)-[:HAS_CHUNK]->(:Chunk)-[:MENTIONS]->(e:Entity)
WHERE d.id IN $ids
RETURN DISTINCT e.id
