// neighbourhood.cypher with $hops = 2: one shortest RELATED path to everything within 2 hops
// (the search stops at 2; the three-hop query's search beyond them is what costs).
MATCH (s:Entity {id: $id})
MATCH p = ANY SHORTEST (s)-[:RELATED]-{1,2}(n:Entity)
WHERE n <> s
RETURN n.id, n.name, n.type, length(p) AS hops
ORDER BY hops, n.mentions DESC, n.id
LIMIT $limit
