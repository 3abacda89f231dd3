// RELATED relations between two entities in both directions, each with its own direction.
MATCH (:Entity {id: $a})-[r:RELATED]-(:Entity {id: $b})
WITH DISTINCT r
RETURN startNode(r).id, endNode(r).id, r.type, r.weight, r.evidence, r.extractor
