// neighbourhood.cypher with $hops = 2: shortest RELATED paths to everything within 2 hops
// (the search stops at 2; the three-hop query's search beyond them is what costs).
MATCH p = (s:Entity {id: $id})-[:RELATED* SHORTEST 1..2]-(n:Entity)
RETURN n.id, n.name, n.type, length(p) AS hops
ORDER BY hops, n.mentions DESC, n.id
LIMIT $limit
