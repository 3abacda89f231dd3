// Every relation edge within $max_hops of the sources, in one round trip: the entities fewer
// than $max_hops relation hops from a source (ring by ring, at most $limit new ones per ring)
// and each relation at them, with both ends' names and whether it is walked in its stored
// direction from `a`. The cheapest-path search over these edges runs in the process
// (read_model.py relation_paths), one relaxation round per hop as the hop-by-hop queries did.
UNWIND $ids AS id
MATCH (s:Entity {id: id})
WITH collect(DISTINCT s) AS ring0
CALL (ring0) {
  UNWIND ring0 AS s
  OPTIONAL MATCH (s)-[:RELATED]-(m:Entity)
  WHERE $max_hops >= 2 AND NOT m IN ring0
  RETURN collect(DISTINCT m)[..$limit] AS ring1
}
CALL (ring0, ring1) {
  UNWIND ring1 AS s
  OPTIONAL MATCH (s)-[:RELATED]-(m:Entity)
  WHERE $max_hops >= 3 AND NOT m IN ring0 AND NOT m IN ring1
  RETURN collect(DISTINCT m)[..$limit] AS ring2
}
UNWIND ring0 + ring1 + ring2 AS a
// A source with no relation still comes back (b null): it is reached at 0 hops.
OPTIONAL MATCH (a)-[r:RELATED]-(b:Entity)
WHERE a <> b
RETURN a.id, a.name, b.id, b.name, r.type, toFloat(r.weight), startNode(r) = a AS forward
