// Take the documents out of the provenance of every alias link (a scan of ALIAS_OF: only
// run when documents are replaced or deleted, never for new ones).
MATCH (:Alias)-[r:ALIAS_OF]->(:Entity)
WHERE any(x IN r.doc_ids WHERE x IN $ids)
SET r.doc_ids = [x IN r.doc_ids WHERE NOT x IN $ids]
