// The aliases linked to the given entities.
MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity)
WHERE e.id IN $ids
RETURN DISTINCT a.normalized
