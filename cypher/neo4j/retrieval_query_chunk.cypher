// Appended by neo4j-graphrag's VectorCypherRetriever to its vector search, which leaves each
// matched chunk as `node` with its index `score`: the chunk with its document.
MATCH (d:Document)-[:HAS_CHUNK]->(node)
RETURN node.id AS chunk_id, d.id AS doc_id, d.title AS doc_title, node.text AS text,
       node.index AS idx, score
