// Entities that no chunk mentions any more go, with their relations and alias links.
MATCH (e:Entity)
WHERE e.id IN $entity_ids AND NOT EXISTS { MATCH (:Chunk)-[:MENTIONS]->(e) }
DETACH DELETE e
RETURN count(*)
