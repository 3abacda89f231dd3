// Remove a document's chunks from the evidence of relations touching the entities it
// mentioned. Directed pattern: Kùzu 0.11.3 fails updating through an undirected one.
WITH $prefix AS pre
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE (a.id IN $entity_ids OR b.id IN $entity_ids) AND any(x IN r.evidence WHERE starts_with(x, pre))
SET r.evidence = list_filter(r.evidence, x -> NOT starts_with(x, pre))
