// Remove a document's chunks from the evidence of relations between the entities it mentions.
WITH $prefix AS pre
MATCH (e:Entity)-[r:RELATED]-(:Entity)
WHERE e.id IN $entity_ids AND any(x IN r.evidence WHERE starts_with(x, pre))
SET r.evidence = list_filter(r.evidence, x -> NOT starts_with(x, pre))
