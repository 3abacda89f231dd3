// Chunks with their document's metadata, the cosine with $vector (Neo4j's function gives the
// same (1 + cos) / 2 as the index; the read model maps it back) and the document's authority
// relative to the most central document.
// The top authority from the document_authority index (a max over every document scanned
// them all, once per call).
CALL () {
  OPTIONAL MATCH (d:Document)
  WHERE d.authority IS NOT NULL
  WITH d.authority AS authority
  ORDER BY authority DESC
  LIMIT 1
  RETURN coalesce(max(authority), 0.0) AS top
}
UNWIND $ids AS id
MATCH (d:Document)-[:HAS_CHUNK]->(c:Chunk {id: id})
RETURN c.id, d.id, d.title, c.text, c.index, coalesce(c.tokens, 0),
       CASE WHEN $vector IS NULL THEN null
            ELSE vector.similarity.cosine(c.embedding, $vector) END,
       CASE WHEN top > 0 THEN coalesce(d.authority, 0.0) / top ELSE 0.0 END,
       coalesce(d.source, ''), coalesce(d.doc_type, ''), coalesce(d.date, '')
