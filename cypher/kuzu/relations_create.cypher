UNWIND $rows AS r
MATCH (a:Entity {id: r.source_id}), (b:Entity {id: r.target_id})
CREATE (a)-[:RELATED {type: r.type, weight: r.weight, evidence: r.evidence, extractor: r.extractor}]->(b)
