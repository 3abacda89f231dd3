UNWIND $rows AS r
MERGE (d:Document {id: r.id})
SET d.uri = r.uri, d.title = r.title, d.content_hash = r.content_hash,
    d.extractor_version = r.extractor_version, d.ingested_at = r.ingested_at,
    d.source = r.source, d.doc_type = r.doc_type, d.date = r.date, d.authority = r.authority
