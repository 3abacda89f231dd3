CALL gds.pageRank.stream($graph_name, {
  relationshipWeightProperty: 'weight',
  dampingFactor: $damping,
  maxIterations: $max_iterations
})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS n, score
WHERE n:Entity OR n:Document
RETURN CASE WHEN n:Entity THEN 'Entity' ELSE 'Document' END AS label, n.id, score
