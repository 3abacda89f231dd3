MATCH (e:Entity {id: $id}) RETURN e.id, e.name, e.type
