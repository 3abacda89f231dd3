UNWIND $ids AS id
MATCH (e:Entity {id: id})<-[:MENTIONS]-(c:Chunk)
RETURN e.id, c.id
