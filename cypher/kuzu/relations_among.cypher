MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE a.id IN $ids AND b.id IN $ids
RETURN a.id, b.id, r.type, r.weight, string_split(r.evidence, ' ')
