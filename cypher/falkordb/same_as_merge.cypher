// Doubtful duplicates from entity resolution; the best score seen is kept.
UNWIND $rows AS r
MATCH (a:Entity {id: r.source_id})
MATCH (b:Entity {id: r.target_id})
MERGE (a)-[s:SAME_AS]->(b)
ON CREATE SET s.score = r.score, s.method = r.method
ON MATCH SET s.score = CASE WHEN r.score > s.score THEN r.score ELSE s.score END
