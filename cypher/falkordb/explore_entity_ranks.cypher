// PageRank and mention count of the given entities, for sizing them in the explorer.
MATCH (e:Entity)
WHERE e.id IN $ids
RETURN e.id, e.pagerank, e.mentions
