// Chunk order is Chunk.idx (no NEXT edges to maintain, as in the Kùzu schema).
MATCH (d:Document)-[:HAS_CHUNK]->(a:Chunk), (d)-[:HAS_CHUNK]->(b:Chunk)
WHERE b.idx = a.idx + 1
RETURN a.id, b.id
