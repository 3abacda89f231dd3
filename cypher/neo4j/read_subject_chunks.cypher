// The chunks of the documents each entity is the subject of (ABOUT, set with authority).
UNWIND $ids AS id
MATCH (e:Entity {id: id})<-[:ABOUT]-(d:Document)-[:HAS_CHUNK]->(c:Chunk)
RETURN e.id, c.id
ORDER BY e.id, c.index
