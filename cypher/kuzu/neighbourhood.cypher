// Shortest RELATED paths from the entity to everything within $hops (at most 3).
MATCH p = (s:Entity {id: $id})-[:RELATED* SHORTEST 1..3]-(n:Entity)
WHERE length(p) <= $hops
RETURN n.id, n.name, n.type, length(p) AS hops,
       properties(nodes(p), 'id') AS node_ids,
       properties(rels(p), 'type') AS types,
       properties(rels(p), 'weight') AS weights
ORDER BY hops, n.mentions DESC
LIMIT $limit
