// $query is Lucene syntax with the user's special characters already escaped.
CALL db.index.fulltext.queryNodes('alias_name', $query, {limit: $k})
YIELD node AS a, score
MATCH (a)-[:ALIAS_OF]->(e:Entity)
RETURN e.id, e.name, score, COUNT { (e)<-[:MENTIONS]-(:Chunk) }, a.name
ORDER BY score DESC
