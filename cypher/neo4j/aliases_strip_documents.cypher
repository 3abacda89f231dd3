MATCH (:Alias)-[r:ALIAS_OF]->(:Entity)
WHERE any(d IN r.doc_ids WHERE d IN $doc_ids)
SET r.doc_ids = [x IN r.doc_ids WHERE NOT x IN $doc_ids]
