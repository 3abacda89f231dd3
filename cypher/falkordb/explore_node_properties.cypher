// Node labels with their property names and value types, from a sample of nodes (FalkorDB
// has no schema catalogue of property types).
MATCH (n)
WITH n LIMIT $sample
UNWIND keys(n) AS k
RETURN DISTINCT labels(n)[0], k, typeOf(n[k])
