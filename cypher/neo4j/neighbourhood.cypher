// One shortest RELATED path from the entity to everything within 3 hops, then $hops (1..3)
// filters: Cypher cannot take a parameter as a path-length bound, and the shortest path to a
// node is within $hops exactly when some path is.
MATCH (s:Entity {id: $id})
MATCH p = ANY SHORTEST (s)-[:RELATED]-{1,3}(n:Entity)
WHERE n <> s AND length(p) <= $hops
RETURN n.id, n.name, n.type, length(p) AS hops
ORDER BY hops, n.mentions DESC, n.id
LIMIT $limit
