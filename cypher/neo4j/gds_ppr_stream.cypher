// Seeds are (id, weight) rows naming chunks or entities; GDS takes [node, bias] pairs.
// The total over all nodes comes along so that scores can be scaled to sum to 1.
UNWIND $seeds AS seed
OPTIONAL MATCH (e:Entity {id: seed.id})
OPTIONAL MATCH (c:Chunk {id: seed.id})
WITH coalesce(e, c) AS node, seed.weight AS bias
WHERE node IS NOT NULL
WITH collect([node, bias]) AS sources
WHERE size(sources) > 0
CALL gds.pageRank.stream($graph_name, {
  sourceNodes: sources,
  relationshipWeightProperty: 'weight',
  dampingFactor: $damping,
  maxIterations: $max_iterations
})
YIELD nodeId, score
WITH collect({node_id: nodeId, score: score}) AS ranked, sum(score) AS total
UNWIND ranked AS r
WITH r, total
ORDER BY r.score DESC
LIMIT $k
WITH gds.util.asNode(r.node_id) AS n, r.score AS score, total
RETURN n.id, CASE WHEN n:Chunk THEN 'Chunk' ELSE 'Entity' END AS label, score, total
