UNWIND $rows AS r
MATCH (:Alias {normalized: r.normalized})-[x:ALIAS_OF]->(:Entity {id: r.entity_id})
SET x.doc_ids = r.doc_ids, x.confidence = r.confidence
