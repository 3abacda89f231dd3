UNWIND $rows AS r
MATCH (d:Document {id: r.id})
SET d.authority = r.score
