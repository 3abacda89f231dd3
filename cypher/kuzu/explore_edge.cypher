// RELATED relations between two entities in both directions (each row keeps its own).
MATCH (a:Entity {id: $a})-[r:RELATED]->(b:Entity {id: $b})
RETURN a.id, b.id, r.type, r.weight, string_split(r.evidence, ' '), r.extractor
UNION ALL
MATCH (a:Entity {id: $b})-[r:RELATED]->(b:Entity {id: $a})
RETURN a.id, b.id, r.type, r.weight, string_split(r.evidence, ' '), r.extractor
