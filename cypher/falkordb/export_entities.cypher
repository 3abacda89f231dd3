MATCH (e:Entity) RETURN e.id, e.name ORDER BY e.id
