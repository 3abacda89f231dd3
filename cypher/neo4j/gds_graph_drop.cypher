CALL gds.graph.drop($graph_name, false)
YIELD graphName
RETURN graphName
