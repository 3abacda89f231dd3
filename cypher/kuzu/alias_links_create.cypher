// The row's fields are bound by WITH before they key a node, one node per MATCH: Kùzu 0.11.3
// crosses `MATCH (e {id: r.id})` with the whole table for each row (test_kuzu_unwind_plans.py).
UNWIND $rows AS r
WITH r, r.normalized AS normalized
MATCH (a:Alias {normalized: normalized})
WITH a, r, r.entity_id AS entity_id
MATCH (e:Entity {id: entity_id})
CREATE (a)-[:ALIAS_OF {method: r.method, confidence: r.confidence, doc_ids: r.doc_ids}]->(e)
