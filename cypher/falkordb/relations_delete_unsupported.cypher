UNWIND $entity_ids AS id
MATCH (:Entity {id: id})-[r:RELATED]-(:Entity)
WITH DISTINCT r
WHERE size(r.evidence) = 0
DELETE r
