UNWIND $ids AS id
MATCH (:Document {id: id})-[:HAS_CHUNK]->(:Chunk)-[m:MENTIONS]->(:Entity)
DELETE m
