MATCH (e:Entity) WHERE e.id IN $ids RETURN e.id
