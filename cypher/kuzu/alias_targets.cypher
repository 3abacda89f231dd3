// The entity each alias key names; the most-mentioned first when a key names several.
UNWIND $keys AS key
MATCH (a:Alias {normalized: key})-[:ALIAS_OF]->(e:Entity)
RETURN a.normalized, e.id
ORDER BY a.normalized, e.mentions DESC, e.id
