// Personalized PageRank from weighted seeds (chunk or entity ids). GDS 2.13's `sourceNodes`
// takes nodes only ([node, bias] pairs came in later GDS releases: "Failed to parse
// `sourceNodes` as a List of node IDs") and restarts uniformly at them, so $walks (rows.py
// seed_walks) splits the weights into binary digits: each walk restarts at the seeds with its
// digit set, and its scores count $walks[w].weight per source. PageRank is linear in its
// restart vector, so the weighted sum of the walks is the walk that restarts at the weighted
// seeds. Every node of the walk graph has an edge (it is projected from relationships), so no
// mass leaks and a walk's scores sum to its number of sources: dividing by the seed total needs
// no second pass over the streamed rows (a collect of every node per walk cost more than the
// walks themselves).
UNWIND range(0, size($walks) - 1) AS w
UNWIND $walks[w].ids AS id
OPTIONAL MATCH (e:Entity {id: id})
OPTIONAL MATCH (c:Chunk {id: id})
WITH w, toFloat($walks[w].weight) AS weight, coalesce(e, c) AS node
WHERE node IS NOT NULL AND weight > 0
WITH w, weight, collect(DISTINCT node) AS sources
WITH collect({weight: weight, sources: sources}) AS groups
WITH groups, reduce(s = 0.0, g IN groups | s + g.weight * size(g.sources)) AS seed_total
WHERE seed_total > 0
UNWIND groups AS g
CALL gds.pageRank.stream($graph_name, {
  sourceNodes: g.sources,
  relationshipWeightProperty: 'weight',
  dampingFactor: $damping,
  maxIterations: $max_iterations
})
YIELD nodeId, score
// GDS streams every node of the graph; those the walk never reaches are not results.
WITH nodeId, score * g.weight / seed_total AS share
WHERE share > 0
WITH nodeId AS node_id, sum(share) AS score
ORDER BY score DESC
LIMIT $k
WITH gds.util.asNode(node_id) AS n, score
// The scores sum to 1 over all nodes (up to the walks' convergence tolerance).
RETURN n.id, CASE WHEN n:Chunk THEN 'Chunk' ELSE 'Entity' END AS label, score, 1.0 AS total
