// The seeds' neighbourhood for personalized PageRank by power iteration in the process
// (graph_store/neo4j/walk.py), weighted as gds_project_ppr weighs the walk graph: mentions by
// their count (at least 1) times $subject_weight where the entity is the subject of the chunk's
// document, relations by their weight, chunk order by $next_weight; undirected.
// Inner nodes: $ids and, when $expand, each one's $fanout heaviest neighbours (the first round
// of a walk; later rounds ask for the far nodes the walk reached, walk.py). Each comes back with its weighted degree over the whole graph (so that the walk leaves it as it would
// in the whole graph) and, when it has at most $fanout edges, every edge with the far node.
// A hub's own edges stay in the database: its walk spreads over so many nodes that none of
// them ranks, and its edges to inner nodes come back from the inner side.
UNWIND $ids AS id
OPTIONAL MATCH (e:Entity {id: id})
OPTIONAL MATCH (c:Chunk {id: id})
WITH coalesce(e, c) AS s
WHERE s IS NOT NULL
WITH collect(DISTINCT s) AS seeds
CALL (seeds) {
  UNWIND seeds AS s
  WITH s
  WHERE $expand
  CALL (s) {
    MATCH (s)-[r:MENTIONS|RELATED|NEXT]-(m)
    WHERE (m:Chunk OR m:Entity) AND m <> s
    RETURN m
    ORDER BY CASE type(r) WHEN 'MENTIONS' THEN coalesce(r.count, 1)
                          WHEN 'RELATED' THEN r.weight ELSE $next_weight END DESC
    LIMIT $fanout
  }
  RETURN collect(DISTINCT m) AS near
}
UNWIND seeds + near AS a
WITH DISTINCT a
CALL (a) {
  // The entities a chunk's document is about, or the chunks of the documents about an entity.
  WITH a, CASE WHEN a:Chunk
      THEN COLLECT { MATCH (a)<-[:HAS_CHUNK]-(:Document)-[:ABOUT]->(x) RETURN x }
      ELSE COLLECT { MATCH (a)<-[:ABOUT]-(:Document)-[:HAS_CHUNK]->(x) RETURN x } END AS subjects
  MATCH (a)-[r:MENTIONS|RELATED|NEXT]-(b)
  WHERE (b:Chunk OR b:Entity) AND b <> a
  WITH b, CASE type(r)
      WHEN 'MENTIONS' THEN
        CASE WHEN r.count > 1 THEN toFloat(r.count) ELSE 1.0 END
        * CASE WHEN b IN subjects THEN toFloat($subject_weight) ELSE 1.0 END
      WHEN 'RELATED' THEN toFloat(r.weight)
      ELSE toFloat($next_weight)
    END AS w
  WHERE w > 0
  WITH collect({id: b.id, w: w}) AS edges, sum(w) AS degree
  RETURN degree, CASE WHEN size(edges) <= $fanout THEN edges ELSE [] END AS kept
}
RETURN a.id, degree, [x IN kept | x.id] AS far, [x IN kept | x.w] AS weights
