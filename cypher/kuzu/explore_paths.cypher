// All shortest RELATED paths (either direction) of at most $hops (1..3; the pattern bound
// cannot be a parameter). Internal ids tell each relation's direction along the path.
MATCH p = (s:Entity {id: $from_id})-[:RELATED* ALL SHORTEST 1..3]-(t:Entity {id: $to_id})
WHERE length(p) <= $hops
RETURN list_transform(nodes(p), n -> n.id),
       list_transform(nodes(p), n -> n.name),
       list_transform(nodes(p), n -> n.type),
       list_transform(nodes(p), n -> id(n)),
       list_transform(rels(p), r -> r._src),
       list_transform(rels(p), r -> r.type),
       list_transform(rels(p), r -> r.weight),
       list_transform(rels(p), r -> string_split(r.evidence, ' '))
LIMIT $limit
