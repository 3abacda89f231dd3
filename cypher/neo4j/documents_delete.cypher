MATCH (d:Document)
WHERE d.id IN $ids
DETACH DELETE d
