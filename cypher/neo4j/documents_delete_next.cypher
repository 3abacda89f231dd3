// Chunk order is rebuilt from the new version of each document.
MATCH (d:Document)-[:HAS_CHUNK]->(:Chunk)-[n:NEXT]->(:Chunk)
WHERE d.id IN $ids
DELETE n
