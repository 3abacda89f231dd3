UNWIND $ids AS id
MATCH (e:Entity {id: id})
OPTIONAL MATCH (:Chunk)-[m:MENTIONS]->(e)
WITH e, sum(coalesce(m.count, 0)) AS n
SET e.mentions = n
