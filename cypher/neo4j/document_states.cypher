MATCH (d:Document) WHERE d.id IN $ids RETURN d.id, d.content_hash, d.extractor_version
