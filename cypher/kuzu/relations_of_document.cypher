// Relations holding evidence from a document (chunk ids start with the document id).
// List properties of relationships are never SET in place: Kùzu 0.11.3 hits an internal
// assertion (csr_node_group.cpp) updating them, so they are deleted and re-created instead.
WITH $prefix AS pre
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE (a.id IN $entity_ids OR b.id IN $entity_ids) AND any(x IN r.evidence WHERE starts_with(x, pre))
RETURN a.id, b.id, r.type, r.weight, r.evidence, r.extractor
