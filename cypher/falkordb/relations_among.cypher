UNWIND $ids AS id
MATCH (a:Entity {id: id})-[r:RELATED]->(b:Entity)
WHERE b.id IN $ids
RETURN a.id, b.id, r.type, r.weight, r.evidence
