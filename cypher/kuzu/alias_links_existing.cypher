UNWIND $rows AS r
MATCH (a:Alias {normalized: r.normalized})-[x:ALIAS_OF]->(:Entity {id: r.entity_id})
RETURN r.normalized, a.name, r.entity_id, x.method, x.confidence, string_split(x.doc_ids, ' ')
