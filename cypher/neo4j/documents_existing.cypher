MATCH (d:Document) WHERE d.id IN $ids RETURN d.id
