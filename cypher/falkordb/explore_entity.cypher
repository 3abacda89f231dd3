MATCH (e:Entity {id: $id})
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e)
RETURN e.id, e.name, e.type, e.description, e.pagerank, e.mentions, collect(a.name)
