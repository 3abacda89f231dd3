MATCH (:Alias)-[r:ALIAS_OF]->(:Entity)
WHERE $doc_id IN r.doc_ids
SET r.doc_ids = [x IN r.doc_ids WHERE x <> $doc_id]
