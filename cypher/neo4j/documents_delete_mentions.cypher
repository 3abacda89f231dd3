MATCH (d:Document)-[:HAS_CHUNK]->(:Chunk)-[m:MENTIONS]->(:Entity)
WHERE d.id IN $ids
DELETE m
