// Remove the documents' chunks (ids start with "<doc id>-", one prefix per document) from the
// evidence of relations between the entities they mention.
MATCH (e:Entity)-[r:RELATED]-(:Entity)
WHERE e.id IN $entity_ids AND any(x IN r.evidence WHERE any(p IN $prefixes WHERE x STARTS WITH p))
SET r.evidence = [x IN r.evidence WHERE NOT any(p IN $prefixes WHERE x STARTS WITH p)]
