UNWIND $rows AS r
MATCH (a:Chunk {id: r.source_id})
MATCH (b:Chunk {id: r.target_id})
MERGE (a)-[:NEXT]->(b)
