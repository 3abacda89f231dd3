MATCH (a:Alias)
WHERE NOT (a)-[:ALIAS_OF]->(:Entity)
DELETE a
