// One RELATED edge per (source, target, type); the type is a validated property, never a
// relationship type built from text. Rows are unique per key (folded by the adapter);
// evidence is the sorted union of stored and new chunk ids.
UNWIND $rows AS r
MATCH (a:Entity {id: r.source_id})
MATCH (b:Entity {id: r.target_id})
MERGE (a)-[x:RELATED {type: r.type}]->(b)
ON CREATE SET x.extractor = r.extractor, x.evidence = []
SET x.weight = r.weight,
    x.evidence = list.sort(list.dedup(x.evidence + r.evidence))
