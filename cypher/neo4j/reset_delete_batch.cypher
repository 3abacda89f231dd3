// One batch of `kg init --reset` on Neo4j: delete up to $batch nodes with their relationships
// (a single transaction over a large graph would need the whole graph in the heap).
MATCH (n)
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*)
