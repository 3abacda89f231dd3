// $query is Lucene syntax with the user's special characters already escaped by the adapter.
CALL db.index.fulltext.queryNodes('chunk_text', $query, {limit: $k})
YIELD node AS c, score
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.index, score
ORDER BY score DESC
