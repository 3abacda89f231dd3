CALL QUERY_FTS_INDEX('Chunk', 'chunk_fts', $query, conjunctive := false, top := $k)
WITH node AS c, score
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.idx, score
ORDER BY score DESC
