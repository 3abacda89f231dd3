WITH $doc_id AS did
MATCH (:Alias)-[r:ALIAS_OF]->(:Entity)
WHERE list_contains(r.doc_ids, did)
SET r.doc_ids = list_filter(r.doc_ids, x -> x <> did)
