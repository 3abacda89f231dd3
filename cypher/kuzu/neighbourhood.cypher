// Shortest RELATED paths from the entity to everything within 3 hops ($hops = 3; one and two
// hops have their own queries, whose searches stop there: on the 2Wiki graph one hop took
// 270-310 ms at p50 through this query, 5 ms through its own).
MATCH p = (s:Entity {id: $id})-[:RELATED* SHORTEST 1..3]-(n:Entity)
WHERE length(p) <= $hops
RETURN n.id, n.name, n.type, length(p) AS hops,
       properties(nodes(p), 'id') AS node_ids,
       properties(rels(p), 'type') AS types,
       properties(rels(p), 'weight') AS weights
ORDER BY hops, n.mentions DESC
LIMIT $limit
