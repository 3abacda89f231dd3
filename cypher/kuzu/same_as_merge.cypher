// Written in its own transaction after the documents' one: Kùzu 0.11.3 loses nodes when one
// transaction writes five relationship tables (see graph_store/kuzu/store.py).
UNWIND $rows AS r
MATCH (a:Entity {id: r.source_id}), (b:Entity {id: r.target_id})
MERGE (a)-[s:SAME_AS]->(b)
ON CREATE SET s.score = r.score, s.method = r.method
ON MATCH SET s.score = CASE WHEN r.score > s.score THEN r.score ELSE s.score END
