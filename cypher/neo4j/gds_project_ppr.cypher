// The walk graph of PageRank and personalized PageRank, the same as the in-memory projection
// (retrieval/projection.py): chunks and entities joined by mentions (weight: the count, at
// least 1, times $subject_weight where the entity is the subject of the chunk's document),
// relations (their weight) and chunk order ($next_weight), all undirected so that a walk can
// leave an entity for every chunk that mentions it.
MATCH (s)-[r:MENTIONS|RELATED|NEXT]->(t)
WHERE (s:Chunk OR s:Entity) AND (t:Chunk OR t:Entity) AND s <> t
WITH gds.graph.project(
  $graph_name, s, t,
  {
    sourceNodeLabels: labels(s),
    targetNodeLabels: labels(t),
    relationshipType: type(r),
    relationshipProperties: {
      weight: CASE type(r)
        WHEN 'MENTIONS' THEN
          CASE WHEN r.count > 1 THEN toFloat(r.count) ELSE 1.0 END
          * CASE WHEN EXISTS { (s)<-[:HAS_CHUNK]-(:Document)-[:ABOUT]->(t) }
                 THEN toFloat($subject_weight) ELSE 1.0 END
        WHEN 'RELATED' THEN toFloat(r.weight)
        ELSE toFloat($next_weight)
      END
    }
  },
  {undirectedRelationshipTypes: ['*']}
) AS g
RETURN g.graphName, g.nodeCount, g.relationshipCount
