CREATE (:Document {id: $id, uri: $uri, title: $title, content_hash: $content_hash,
                   extractor_version: $extractor_version, ingested_at: $ingested_at,
                   source: $source, doc_type: $doc_type, date: $date, authority: $authority})
