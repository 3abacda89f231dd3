// All shortest RELATED paths (either direction) of at most $hops (1..3; the bound cannot be
// a parameter). allShortestPaths needs both ends bound first.
MATCH (s:Entity {id: $from_id})
MATCH (t:Entity {id: $to_id})
WITH s, t
MATCH p = allShortestPaths((s)-[:RELATED*1..3]-(t))
WHERE length(p) <= $hops
WITH nodes(p) AS ns, relationships(p) AS rs
RETURN [n IN ns | n.id], [n IN ns | n.name], [n IN ns | n.type],
       [i IN range(0, size(rs) - 1) | startNode(rs[i]) = ns[i]],
       [r IN rs | r.type], [r IN rs | r.weight], [r IN rs | r.evidence]
LIMIT $limit
