MERGE (d:Document {id: $id})
SET d.uri = $uri, d.title = $title, d.content_hash = $content_hash,
    d.extractor_version = $extractor_version, d.ingested_at = $ingested_at,
    d.source = $source, d.doc_type = $doc_type, d.date = $date, d.authority = $authority
