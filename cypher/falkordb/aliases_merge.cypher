// Rows are unique per (alias, entity) (the adapter folds a batch first); provenance (doc_ids)
// is the sorted union of what is stored and what the batch brings.
UNWIND $rows AS r
MATCH (e:Entity {id: r.entity_id})
MERGE (a:Alias {normalized: r.normalized})
ON CREATE SET a.name = r.name
MERGE (a)-[x:ALIAS_OF]->(e)
ON CREATE SET x.method = r.method, x.doc_ids = []
SET x.confidence = r.confidence,
    x.doc_ids = list.sort(list.dedup(x.doc_ids + r.doc_ids))
