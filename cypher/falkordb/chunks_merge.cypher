// Chunk ids derive from content: an unchanged chunk is matched and rewritten to itself.
UNWIND $rows AS r
MATCH (d:Document {id: r.doc_id})
MERGE (c:Chunk {id: r.id})
SET c.doc_id = r.doc_id, c.idx = r.idx, c.text = r.text, c.tokens = r.tokens,
    c.content_hash = r.content_hash, c.embedding = vecf32(r.embedding)
MERGE (d)-[:HAS_CHUNK]->(c)
