// neighbourhood.cypher with $hops = 2: every entity within 2 RELATED hops at its shortest
// distance (the paths stop at 2; those of three hops are what cost).
MATCH (s:Entity {id: $id})
MATCH p = (s)-[:RELATED*1..2]-(n:Entity)
WHERE n <> s
WITH n, min(length(p)) AS hops
RETURN n.id, n.name, n.type, hops
ORDER BY hops, n.mentions DESC, n.id
LIMIT $limit
