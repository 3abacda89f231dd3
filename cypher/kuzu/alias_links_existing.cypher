// The row's fields are bound by WITH before they key a node, one node per MATCH: Kùzu 0.11.3
// crosses `MATCH (e {id: r.id})` with the whole table for each row (test_kuzu_unwind_plans.py).
UNWIND $rows AS r
WITH r.normalized AS normalized, r.entity_id AS entity_id
MATCH (a:Alias {normalized: normalized})-[x:ALIAS_OF]->(:Entity {id: entity_id})
RETURN normalized, a.name, entity_id, x.method, x.confidence, string_split(x.doc_ids, ' ')
