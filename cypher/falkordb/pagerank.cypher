// FalkorDB's own PageRank over entities and their relations (unweighted, directed): a check
// that the algorithm runs here; retrieval's authority is the in-memory read model's weighted
// walk over chunks and entities (retrieval/projection.py), the same on every store.
CALL algo.pageRank('Entity', 'RELATED') YIELD node, score
RETURN node.id, score
ORDER BY score DESC, node.id
LIMIT $k
