// The chunks of the documents each entity is the subject of: the one its title names (ABOUT,
// set with authority) and those whose title begins with its name or alias (TITLE_SUBJECT).
UNWIND $ids AS id
MATCH (e:Entity {id: id})<-[:ABOUT|TITLE_SUBJECT]-(d:Document)-[:HAS_CHUNK]->(c:Chunk)
WITH DISTINCT e, c
RETURN e.id, c.id
ORDER BY e.id, c.index
