WITH $doc_id AS did
MATCH (a:Alias)-[r:ALIAS_OF]->(e:Entity)
WHERE list_contains(r.doc_ids, did)
RETURN a.normalized, a.name, e.id, r.method, r.confidence, r.doc_ids
