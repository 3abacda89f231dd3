MATCH (d:Document)
RETURN d.id, d.uri, d.title, d.content_hash, d.extractor_version, d.ingested_at,
       d.source, d.doc_type, d.date, size([(d)-[:HAS_CHUNK]->(:Chunk) | 1])
ORDER BY d.title, d.id
SKIP $offset LIMIT $limit
