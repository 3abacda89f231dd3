// The aliases linked to the given entities.
UNWIND $ids AS id
MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity {id: id})
RETURN DISTINCT a.normalized
