// Aliases that start with what was typed (longer than it), the shortest first.
MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity)
WHERE a.normalized STARTS WITH $key AND a.normalized <> $key
RETURN e.id, e.name, e.type, a.name, a.normalized
ORDER BY size(a.normalized), e.mentions DESC, e.id
LIMIT $k
