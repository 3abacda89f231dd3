UNWIND $ids AS id
MATCH (d:Document {id: id})
RETURN d.id, d.content_hash, d.extractor_version
