// Remove a document's chunks (ids start with "<doc id>-") from the evidence of relations
// between the entities it mentions.
MATCH (e:Entity)-[r:RELATED]-(:Entity)
WHERE e.id IN $entity_ids AND any(x IN r.evidence WHERE x STARTS WITH $prefix)
SET r.evidence = [x IN r.evidence WHERE NOT x STARTS WITH $prefix]
