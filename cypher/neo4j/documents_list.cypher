MATCH (d:Document)
WITH d, COUNT { MATCH (d)-[:HAS_CHUNK]->(:Chunk) } AS chunks
RETURN d.id, d.uri, d.title, d.content_hash, d.extractor_version, d.ingested_at,
       d.source, d.doc_type, d.date, chunks
ORDER BY d.title, d.id
SKIP $offset LIMIT $limit
