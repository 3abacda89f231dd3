// Seeds are (id, weight) rows naming chunks or entities; GDS takes [node, bias] pairs.
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
WITH gds.util.asNode(nodeId) AS n, score
ORDER BY score DESC
LIMIT $k
RETURN n.id, CASE WHEN n:Chunk THEN 'Chunk' ELSE 'Entity' END AS label, score
