// The entity each alias key names; the most-mentioned first when a key names several.
MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity)
WHERE a.normalized IN $keys
RETURN a.normalized, e.id
ORDER BY a.normalized, e.mentions DESC, e.id
