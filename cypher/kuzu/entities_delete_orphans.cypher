// Entities that no chunk mentions any more go, with their relations and alias links.
UNWIND $entity_ids AS id
MATCH (e:Entity {id: id})
WHERE NOT EXISTS { MATCH (:Chunk)-[:MENTIONS]->(e) }
DETACH DELETE e
