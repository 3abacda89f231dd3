UNWIND $rows AS r
MATCH (:Entity {id: r.source_id})-[x:RELATED]->(:Entity {id: r.target_id})
WHERE x.type = r.type
RETURN r.source_id, r.target_id, r.type, x.weight, string_split(x.evidence, ' '), x.extractor
