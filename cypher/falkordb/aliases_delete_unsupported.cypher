MATCH (:Alias)-[r:ALIAS_OF]->(:Entity)
WHERE size(r.doc_ids) = 0
DELETE r
