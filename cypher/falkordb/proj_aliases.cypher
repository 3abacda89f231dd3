MATCH (a:Alias)-[l:ALIAS_OF]->(e:Entity)
RETURN a.name, e.id, l.confidence
