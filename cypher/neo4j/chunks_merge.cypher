UNWIND $rows AS r
MATCH (d:Document {id: r.doc_id})
MERGE (c:Chunk {id: r.id})
SET c.doc_id = r.doc_id, c.index = r.idx, c.text = r.text, c.tokens = r.tokens,
    c.content_hash = r.content_hash, c.embedding = r.embedding
MERGE (d)-[:HAS_CHUNK]->(c)
