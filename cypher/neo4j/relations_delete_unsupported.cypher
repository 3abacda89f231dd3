MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE (a.id IN $entity_ids OR b.id IN $entity_ids) AND size(r.evidence) = 0
DELETE r
