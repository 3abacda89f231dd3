UNWIND $rows AS r
MATCH (:Alias {normalized: r.normalized})-[x:ALIAS_OF]->(:Entity {id: r.entity_id})
DELETE x
