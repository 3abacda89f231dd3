// The row's fields are bound by WITH before they key a node, one node per MATCH: Kùzu 0.11.3
// crosses `MATCH (e {id: r.id})` with the whole table for each row (test_kuzu_unwind_plans.py).
UNWIND $rows AS r
WITH r, r.source_id AS source_id
MATCH (a:Entity {id: source_id})
WITH a, r, r.target_id AS target_id
MATCH (b:Entity {id: target_id})
CREATE (a)-[:RELATED {type: r.type, weight: r.weight, evidence: r.evidence, extractor: r.extractor}]->(b)
