// The relation kinds stored in RELATED.type, the most frequent first.
MATCH ()-[r:RELATED]->()
RETURN r.type, count(*) AS n
ORDER BY n DESC, r.type
LIMIT $limit
