// The entity's direct RELATED neighbours (neighbourhood.cypher with $hops = 1), without the
// shortest-path search over everything within 3 hops that query makes before it filters.
MATCH (s:Entity {id: $id})-[:RELATED]-(n:Entity)
WHERE n <> s
WITH DISTINCT n
RETURN n.id, n.name, n.type, 1 AS hops
ORDER BY n.mentions DESC, n.id
LIMIT $limit
