// All shortest RELATED paths (either direction) of at most $hops (1..3): Cypher cannot take a
// parameter as a quantifier bound, and every shortest path is within $hops when one is.
MATCH (s:Entity {id: $from_id})
MATCH (t:Entity {id: $to_id})
MATCH p = ALL SHORTEST (s)-[:RELATED]-{1,3}(t)
WHERE length(p) <= $hops
WITH nodes(p) AS ns, relationships(p) AS rs
RETURN [n IN ns | n.id], [n IN ns | n.name], [n IN ns | n.type],
       [i IN range(0, size(rs) - 1) | startNode(rs[i]) = ns[i]],
       [r IN rs | r.type], [r IN rs | r.weight], [r IN rs | r.evidence]
LIMIT $limit
