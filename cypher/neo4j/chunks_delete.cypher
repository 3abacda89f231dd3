MATCH (c:Chunk)
WHERE c.id IN $ids
DETACH DELETE c
