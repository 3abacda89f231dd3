// Entities named by normalised n-grams of a question, with how many chunks mention each and
// the alias's own surface name (the caller keeps matches whose words are the alias's).
UNWIND $keys AS key
MATCH (a:Alias {normalized: key})-[r:ALIAS_OF]->(e:Entity)
RETURN key, e.id, e.name, coalesce(r.confidence, 1.0), COUNT { (e)<-[:MENTIONS]-(:Chunk) }, a.name
