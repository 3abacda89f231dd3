// The row's fields are bound by WITH before they key a node, one node per MATCH: Kùzu 0.11.3
// crosses `MATCH (e {id: r.id})` with the whole table for each row (test_kuzu_unwind_plans.py).
UNWIND $rows AS r
WITH r, r.chunk_id AS chunk_id
MATCH (c:Chunk {id: chunk_id})
WITH c, r.count AS count, r.entity_id AS entity_id
MATCH (e:Entity {id: entity_id})
CREATE (c)-[:MENTIONS {count: count}]->(e)
