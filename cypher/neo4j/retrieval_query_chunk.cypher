// Appended by neo4j-graphrag's VectorCypherRetriever to its vector search, which leaves each
// matched chunk as `node` with its index `score`: the chunk with its document, and what
// read_chunk_details.cypher reads of it (the cosine with the asked $query_vector by the same
// function, the document's authority relative to the most central document's), so that a
// search's dense candidates come with their details in one round trip.
MATCH (d:Document)-[:HAS_CHUNK]->(node)
CALL () {
  OPTIONAL MATCH (x:Document)
  WHERE x.authority IS NOT NULL
  WITH x.authority AS authority
  ORDER BY authority DESC
  LIMIT 1
  RETURN coalesce(max(authority), 0.0) AS top
}
RETURN node.id AS chunk_id, d.id AS doc_id, d.title AS doc_title, node.text AS text,
       node.index AS idx, score, coalesce(node.tokens, 0) AS tokens,
       vector.similarity.cosine(node.embedding, $query_vector) AS similarity,
       CASE WHEN top > 0 THEN coalesce(d.authority, 0.0) / top ELSE 0.0 END AS authority,
       coalesce(d.source, '') AS source, coalesce(d.doc_type, '') AS doc_type,
       coalesce(d.date, '') AS date
