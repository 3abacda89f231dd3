// The chunks of the documents each entity is the subject of (the title names it).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
MATCH (d:Document {title: e.name})-[:HAS_CHUNK]->(c:Chunk)
RETURN e.id, c.id
ORDER BY e.id, c.index
