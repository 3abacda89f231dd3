// Every entity with its type, PageRank, mention count and alias names, for an exported graph.
MATCH (e:Entity)
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e)
RETURN e.id, e.type, e.pagerank, e.mentions, collect(a.name)
ORDER BY e.id
