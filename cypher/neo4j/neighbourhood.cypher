// One shortest RELATED path from the entity to everything within 3 hops ($hops = 3; one and
// two hops have their own queries, whose searches stop there: Cypher cannot take a parameter
// as a path-length bound, and a search to 3 hops from a hub reaches much of the graph).
MATCH (s:Entity {id: $id})
MATCH p = ANY SHORTEST (s)-[:RELATED]-{1,3}(n:Entity)
WHERE n <> s AND length(p) <= $hops
RETURN n.id, n.name, n.type, length(p) AS hops
ORDER BY hops, n.mentions DESC, n.id
LIMIT $limit
