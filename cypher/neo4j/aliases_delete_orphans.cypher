MATCH (a:Alias)
WHERE NOT EXISTS { MATCH (a)-[:ALIAS_OF]->(:Entity) }
DELETE a
