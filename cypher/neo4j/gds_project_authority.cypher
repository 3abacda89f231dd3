// Authority graph: documents, chunks and entities. Containment and mentions count both ways;
// RELATED keeps its direction, so an entity gains authority from the entities pointing at it.
MATCH (s)-[r:HAS_CHUNK|MENTIONS|RELATED]->(t)
WITH gds.graph.project(
  $graph_name, s, t,
  {
    sourceNodeLabels: labels(s),
    targetNodeLabels: labels(t),
    relationshipType: type(r),
    relationshipProperties: {
      weight: CASE type(r)
        WHEN 'MENTIONS' THEN toFloat(r.count)
        WHEN 'RELATED' THEN toFloat(r.weight)
        ELSE 1.0
      END
    }
  },
  {undirectedRelationshipTypes: ['HAS_CHUNK', 'MENTIONS']}
) AS g
RETURN g.graphName, g.nodeCount, g.relationshipCount
