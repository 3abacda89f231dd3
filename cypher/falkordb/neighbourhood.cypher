// Every entity within 3 RELATED hops (either direction) at its shortest distance ($hops = 3:
// one and two hops have their own queries, which stop there); $hops
// (1..3) filters, as a variable-length bound cannot be a parameter.
MATCH (s:Entity {id: $id})
MATCH p = (s)-[:RELATED*1..3]-(n:Entity)
WHERE n <> s
WITH n, min(length(p)) AS hops
WHERE hops <= $hops
RETURN n.id, n.name, n.type, hops
ORDER BY hops, n.mentions DESC, n.id
LIMIT $limit
