CALL QUERY_FTS_INDEX('Alias', 'alias_fts', $query, conjunctive := false, top := $k)
WITH node AS a, score
MATCH (a)-[:ALIAS_OF]->(e:Entity)
RETURN e.id, e.name, e.type, score, a.name
ORDER BY score DESC
