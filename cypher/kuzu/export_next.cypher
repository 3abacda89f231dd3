// Chunk order comes from Chunk.idx: no NEXT table in Kùzu (see graph_store/kuzu/store.py).
MATCH (d:Document)-[:HAS_CHUNK]->(a:Chunk), (d)-[:HAS_CHUNK]->(b:Chunk)
WHERE b.idx = a.idx + 1
RETURN a.id, b.id
