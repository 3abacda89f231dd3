// Global PageRank over the walk graph, written to `pagerank` on every chunk and entity.
CALL gds.pageRank.write($graph_name, {
  relationshipWeightProperty: 'weight',
  dampingFactor: $damping,
  maxIterations: $max_iterations,
  writeProperty: 'pagerank'
})
YIELD nodePropertiesWritten
RETURN nodePropertiesWritten
