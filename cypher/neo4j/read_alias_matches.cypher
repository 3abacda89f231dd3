// Entities named by normalised word n-grams of a question, with how many chunks mention each.
UNWIND $keys AS key
MATCH (a:Alias {normalized: key})-[r:ALIAS_OF]->(e:Entity)
RETURN key, e.id, e.name, coalesce(r.confidence, 1.0), COUNT { (e)<-[:MENTIONS]-(:Chunk) }
