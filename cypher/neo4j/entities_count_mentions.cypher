MATCH (e:Entity)
WHERE e.id IN $ids
OPTIONAL MATCH (:Chunk)-[m:MENTIONS]->(e)
WITH e, sum(coalesce(m.count, 0)) AS n
SET e.mentions = n
