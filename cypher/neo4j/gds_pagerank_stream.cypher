// Global PageRank over the walk projection (chunks and entities).
CALL gds.pageRank.stream($graph_name, {
  relationshipWeightProperty: 'weight',
  dampingFactor: $damping,
  maxIterations: $max_iterations
})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS n, score
RETURN CASE WHEN n:Chunk THEN 'Chunk' ELSE 'Entity' END AS label, n.id, score
