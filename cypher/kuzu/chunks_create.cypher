UNWIND $rows AS r
MATCH (d:Document {id: r.doc_id})
CREATE (c:Chunk {id: r.id, doc_id: r.doc_id, idx: r.idx, text: r.text, tokens: r.tokens,
                 content_hash: r.content_hash, embedding: r.embedding})
CREATE (d)-[:HAS_CHUNK]->(c)
