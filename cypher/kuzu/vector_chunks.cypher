CALL QUERY_VECTOR_INDEX('Chunk', 'chunk_emb', $embedding, $k)
WITH node AS c, distance
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.idx, distance
ORDER BY distance
