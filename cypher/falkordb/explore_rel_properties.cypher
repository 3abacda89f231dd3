// Relationship types with the labels they join and their properties, from a sample.
MATCH (a)-[r]->(b)
WITH a, r, b LIMIT $sample
UNWIND CASE WHEN size(keys(r)) = 0 THEN [null] ELSE keys(r) END AS k
RETURN DISTINCT type(r), labels(a)[0], labels(b)[0], k, CASE WHEN k IS NULL THEN null ELSE typeOf(r[k]) END
