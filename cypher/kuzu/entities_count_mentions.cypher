// Keys by primary key, not `IN` (see document_states.cypher); $ids holds no duplicates.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
OPTIONAL MATCH (:Chunk)-[m:MENTIONS]->(e)
WITH e, sum(coalesce(m.count, 0)) AS n
SET e.mentions = n
