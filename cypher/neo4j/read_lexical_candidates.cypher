// The full-text candidates (fulltext_chunks.cypher) with read_chunk_details.cypher's columns
// for each, then the score: a search's lexical candidates and their details in one round
// trip. $query is Lucene syntax with the user's special characters escaped by the adapter.
CALL () {
  OPTIONAL MATCH (d:Document)
  WHERE d.authority IS NOT NULL
  WITH d.authority AS authority
  ORDER BY authority DESC
  LIMIT 1
  RETURN coalesce(max(authority), 0.0) AS top
}
CALL db.index.fulltext.queryNodes('chunk_text', $query, {limit: $k})
YIELD node AS c, score
MATCH (d:Document)-[:HAS_CHUNK]->(c)
RETURN c.id, d.id, d.title, c.text, c.index, coalesce(c.tokens, 0),
       CASE WHEN $vector IS NULL THEN null
            ELSE vector.similarity.cosine(c.embedding, $vector) END,
       CASE WHEN top > 0 THEN coalesce(d.authority, 0.0) / top ELSE 0.0 END,
       coalesce(d.source, ''), coalesce(d.doc_type, ''), coalesce(d.date, ''), score
ORDER BY score DESC
