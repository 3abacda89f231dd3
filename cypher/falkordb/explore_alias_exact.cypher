// Entities an exact normalised alias names, the most-mentioned first.
MATCH (a:Alias {normalized: $key})-[:ALIAS_OF]->(e:Entity)
RETURN e.id, e.name, e.type, a.name, a.normalized
ORDER BY e.mentions DESC, e.id
LIMIT $k
