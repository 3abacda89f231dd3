// The row's fields are bound by WITH before they key a node, one node per MATCH: Kùzu 0.11.3
// crosses `MATCH (e {id: r.id})` with the whole table for each row (test_kuzu_unwind_plans.py).
UNWIND $rows AS r
WITH r.type AS type, r.source_id AS source_id, r.target_id AS target_id
MATCH (:Entity {id: source_id})-[x:RELATED]->(:Entity {id: target_id})
WHERE x.type = type
RETURN source_id, target_id, type, x.weight, string_split(x.evidence, ' '), x.extractor
