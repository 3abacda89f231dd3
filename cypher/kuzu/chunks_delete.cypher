// Chunks a new version of their document no longer has. Chunk ids derive from content, so
// a kept chunk is identical and is never deleted and re-created in one transaction (Kùzu
// rejects re-inserting a primary key deleted in the same transaction). The HAS_CHUNK edge
// is deleted first on its own: with DETACH DELETE alone, Kùzu 0.11.3 left a stale edge that
// reattached to the next chunk created in the freed slot.
MATCH (:Document)-[h:HAS_CHUNK]->(c:Chunk)
WHERE c.id IN $ids
DELETE h
WITH DISTINCT c
DETACH DELETE c
