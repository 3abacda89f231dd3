MATCH (e:Entity)
WHERE e.type IS NOT NULL
RETURN e.type, count(*) AS n
ORDER BY n DESC, e.type
LIMIT $limit
