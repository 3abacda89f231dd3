// Numeric facts of the given kinds ("max", "min", "amount"), with their document's title.
MATCH (f:NumericFact)
WHERE f.kind IN $kinds
MATCH (d:Document {id: f.doc_id})
RETURN f.id, f.doc_id, f.chunk_id, f.value, f.unit, f.measure, f.kind, f.entity_id, f.entity_name, f.text, d.title
ORDER BY f.id
LIMIT $limit
