// Alias links some of the given documents vouch for (see relations_of_chunks for the WITH).
WITH $ids AS ids
MATCH (a:Alias)-[r:ALIAS_OF]->(e:Entity)
WHERE any(d IN string_split(r.doc_ids, ' ') WHERE list_contains(ids, d))
RETURN a.normalized, a.name, e.id, r.method, r.confidence, string_split(r.doc_ids, ' ')
