UNWIND $rows AS r
MATCH (a:Alias {normalized: r.normalized}), (e:Entity {id: r.entity_id})
CREATE (a)-[:ALIAS_OF {method: r.method, confidence: r.confidence, doc_ids: r.doc_ids}]->(e)
