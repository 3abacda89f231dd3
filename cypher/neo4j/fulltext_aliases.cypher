CALL db.index.fulltext.queryNodes('alias_name', $query, {limit: $k})
YIELD node AS a, score
MATCH (a)-[:ALIAS_OF]->(e:Entity)
RETURN e.id, e.name, e.type, score, a.name
ORDER BY score DESC
