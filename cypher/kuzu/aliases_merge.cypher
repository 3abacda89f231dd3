UNWIND $rows AS r
MERGE (a:Alias {normalized: r.normalized})
ON CREATE SET a.name = r.name
