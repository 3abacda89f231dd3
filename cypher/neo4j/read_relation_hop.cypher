// One hop of relation-path search: for every entity next to the frontier, its cheapest offer
// (the frontier entity's path cost plus 2 - the relation's weight clipped to [0, 1]) with
// the relation and whether it is walked in its stored direction. One row per reached entity,
// not per edge: the rows, not the matching, were what a hop cost.
UNWIND $frontier AS f
MATCH (a:Entity {id: f.id})-[r:RELATED]-(b:Entity)
WHERE a <> b
WITH f, a, b, r, toFloat(r.weight) AS w
WITH a, b, r, w, f.cost + 2.0 - CASE WHEN w > 1.0 THEN 1.0 WHEN w < 0.0 THEN 0.0 ELSE w END AS cost
ORDER BY cost
WITH b, head(collect({a: a.id, rel: r.type, w: w, forward: startNode(r) = a, cost: cost})) AS best
RETURN best.a, b.id, b.name, best.rel, best.w, best.forward
