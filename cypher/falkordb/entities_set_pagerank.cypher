UNWIND $rows AS r
MATCH (e:Entity {id: r.id})
SET e.pagerank = r.score
