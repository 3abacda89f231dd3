UNWIND $rows AS r
MATCH (:Entity {id: r.source_id})-[x:RELATED]->(:Entity {id: r.target_id})
WHERE x.type = r.type
DELETE x
