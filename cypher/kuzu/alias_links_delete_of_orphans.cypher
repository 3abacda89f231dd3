// The alias links of the entities entities_delete_orphans is about to delete, deleted first on
// their own: after DETACH DELETE alone, Kùzu 0.11.3 still shows the link from the alias's side
// for the rest of the transaction, so the alias orphan check kept an alias it had left bare.
UNWIND $entity_ids AS id
MATCH (:Alias)-[x:ALIAS_OF]->(e:Entity {id: id})
WHERE NOT EXISTS { MATCH (:Chunk)-[:MENTIONS]->(e) }
DELETE x
