// A stronger score for SAME_AS edges the store has (same_as_existing found them).
// The row's fields are bound by WITH before they key a node, one node per MATCH: Kùzu 0.11.3
// crosses `MATCH (e {id: r.id})` with the whole table for each row (test_kuzu_unwind_plans.py).
UNWIND $rows AS r
WITH r.score AS score, r.source_id AS source_id, r.target_id AS target_id
MATCH (:Entity {id: source_id})-[s:SAME_AS]->(:Entity {id: target_id})
SET s.score = score
