// Chunks a new version of their document no longer has. Chunk ids derive from content, so
// a kept chunk is identical and is never deleted and re-created in one transaction (Kùzu
// rejects re-inserting a primary key deleted in the same transaction).
MATCH (c:Chunk)
WHERE c.id IN $ids
DETACH DELETE c
