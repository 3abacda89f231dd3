// The chunk–entity graph personalized PageRank walks: mentions, relations and chunk order,
// all undirected so that a walk can leave an entity for every chunk that mentions it.
MATCH (s)-[r:MENTIONS|RELATED|NEXT]->(t)
WHERE (s:Chunk OR s:Entity) AND (t:Chunk OR t:Entity)
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
  {undirectedRelationshipTypes: ['*']}
) AS g
RETURN g.graphName, g.nodeCount, g.relationshipCount
