// One hop of relation-path search: every RELATED edge at an entity of the frontier, with
// whether it is walked in its stored direction.
UNWIND $ids AS id
MATCH (a:Entity {id: id})-[r:RELATED]-(b:Entity)
WHERE a <> b
RETURN a.id, b.id, b.name, r.type, toFloat(r.weight), startNode(r) = a
